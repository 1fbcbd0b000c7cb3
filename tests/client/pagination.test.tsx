// @vitest-environment happy-dom
/** The page controls under a list, and none under an empty one. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Pagination } from '../../src/ui/Pagination';

afterEach(cleanup);

const noop = () => undefined;

describe('Pagination', () => {
  it('says where the page is in the list', () => {
    render(<Pagination page={2} limit={10} total={25} onPageChange={noop} />);
    expect(screen.getByText('11–20 de 25')).toBeTruthy();
    expect(screen.getByText('Página 2 de 3')).toBeTruthy();
  });

  it('is not drawn under an empty list', () => {
    const { container } = render(<Pagination page={1} limit={10} total={0} onPageChange={noop} />);
    expect(container.innerHTML).toBe('');
  });

  it('keeps the way back on a page past the end, and the offline text', () => {
    render(<Pagination page={3} limit={10} total={0} onPageChange={noop} />);
    expect(screen.getByRole('button', { name: 'Anterior' })).toBeTruthy();
    cleanup();
    render(<Pagination page={1} limit={10} total={0} unknown onPageChange={noop} />);
    expect(screen.getByText('Sem conexão')).toBeTruthy();
  });
});
