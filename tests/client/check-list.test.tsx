// @vitest-environment happy-dom
/**
 * A long checkbox list: its filter, its count in the words of SPEC §9 ('{n} {singular}
 * selecionado' / '{n} {plural} selecionados') and 'Todos' / 'Limpar' for what is shown.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckList } from '../../src/ui/CheckList';

afterEach(cleanup);

const VEHICLES = Array.from({ length: 12 }, (_, i) => ({
  value: `v${i}`,
  label: `ABC${String(i).padStart(4, '0')} | ${i % 2 ? 'Caminhão' : 'Van'} ${i}`,
}));

let last: string[] = [];
function Harness({
  initial = [] as string[],
  options = VEHICLES,
  noun = ['veículo', 'veículos'] as [string, string] | null,
}) {
  const [value, setValue] = useState(initial);
  last = value;
  return (
    <CheckList
      label="Veículos"
      noun={noun ?? undefined}
      options={options}
      value={value}
      onChange={setValue}
    />
  );
}

async function press(name: string) {
  const button = screen.getByRole('button', { name });
  await act(async () => {
    fireEvent.pointerDown(button, { pointerType: 'mouse', button: 0 });
    fireEvent.pointerUp(button, { pointerType: 'mouse', button: 0 });
    fireEvent.click(button);
  });
}

describe('CheckList', () => {
  it('filters by any word of the label, accents and dashes aside, and counts what is checked', () => {
    // 'gone': checked once, no longer offered (a vehicle removed): not counted.
    render(<Harness initial={['v1', 'gone']} />);
    expect(screen.getAllByRole('checkbox')).toHaveLength(12);
    expect(screen.getByText('1 veículo selecionado')).toBeTruthy();
    expect(screen.queryByText(/marcad/)).toBeNull();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filtrar: Veículos' }), {
      target: { value: 'caminhao' },
    });
    expect(screen.getAllByRole('checkbox')).toHaveLength(6);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filtrar: Veículos' }), {
      target: { value: 'abc-0007' },
    });
    expect(screen.getAllByRole('checkbox').map((c) => c.closest('label')?.textContent)).toEqual([
      'ABC0007 | Caminhão 7',
    ]);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filtrar: Veículos' }), {
      target: { value: 'xyz' },
    });
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.getByText('Nenhum item com esse filtro.')).toBeTruthy();
  });

  it('checks and unchecks only the items shown, keeping those the filter hides', async () => {
    render(<Harness initial={['v0']} />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filtrar: Veículos' }), {
      target: { value: 'caminhão' },
    });
    await press('Marcar todos os mostrados');
    expect([...last].sort()).toEqual(['v0', 'v1', 'v11', 'v3', 'v5', 'v7', 'v9']);
    expect(screen.getByText('7 veículos selecionados')).toBeTruthy();
    await press('Limpar os mostrados');
    expect(last).toEqual(['v0']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filtrar: Veículos' }), {
      target: { value: '' },
    });
    await press('Marcar todos');
    expect(last).toHaveLength(12);
    // Pressed again, with nothing left to check: still there to press, nothing changes.
    const all = screen.getByRole('button', { name: 'Marcar todos' }) as HTMLButtonElement;
    expect(all.disabled).toBe(false);
    await press('Marcar todos');
    expect(last).toHaveLength(12);
    await press('Limpar seleção');
    expect(last).toEqual([]);
  });

  it('clears what is checked but no longer offered with the rest', async () => {
    render(<Harness initial={['v2', 'gone']} />);
    await press('Limpar seleção');
    expect(last).toEqual([]);
  });

  it('counts in the singular for one and in the plural for none or many, by its noun', async () => {
    render(<Harness />);
    expect(screen.getByText('0 veículos selecionados')).toBeTruthy();
    await press('Marcar todos');
    expect(screen.getByText('12 veículos selecionados')).toBeTruthy();
    cleanup();
    // A list that names nothing counts items.
    render(<Harness initial={['v3']} noun={null} />);
    expect(screen.getByText('1 item selecionado')).toBeTruthy();
    await press('Marcar todos');
    expect(screen.getByText('12 itens selecionados')).toBeTruthy();
  });

  it('a short list has no filter, and an empty one says so', () => {
    render(<Harness options={VEHICLES.slice(0, 3)} />);
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.getAllByRole('checkbox')).toHaveLength(3);
    cleanup();
    render(<Harness options={[]} />);
    expect(screen.getByText('Nenhuma opção disponível.')).toBeTruthy();
  });
});
