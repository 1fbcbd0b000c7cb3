// @vitest-environment happy-dom
/** The page controls under a list, and none under an empty one. */
import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Pagination, useRowsPage } from '../../src/ui/Pagination';

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

describe('useRowsPage', () => {
  const numbers = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  it('shows the page asked for, never past the last, and the first of another period', () => {
    const { result, rerender } = renderHook(({ rows, of }) => useRowsPage(rows, 10, of), {
      initialProps: { rows: numbers(25), of: 'week' },
    });
    expect(result.current.rows).toEqual(numbers(10));
    act(() => result.current.setPage(3));
    expect(result.current.page).toBe(3);
    expect(result.current.rows).toEqual([21, 22, 23, 24, 25]);
    // A new read with fewer rows: its last page, not an empty one.
    rerender({ rows: numbers(15), of: 'week' });
    expect(result.current.page).toBe(2);
    expect(result.current.rows).toEqual([11, 12, 13, 14, 15]);
    // Another period: its first page.
    rerender({ rows: numbers(25), of: 'month' });
    expect(result.current.page).toBe(1);
    expect(result.current.rows).toEqual(numbers(10));
  });
});
