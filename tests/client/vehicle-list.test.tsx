// @vitest-environment happy-dom
/**
 * The list beside the map, rendered for real (react-aria's virtualised grid): the count and
 * search, rows on screen, choosing a row, and the grid's mount key — mounted anew when many
 * rows appear at once (first rows, search cleared), kept for small changes (a row's focus
 * and scroll survive).
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocationItem } from '../../src/contract';
import { REMOUNT_AT, VehicleList } from '../../src/features/map/VehicleList';
import { locationItem } from './location-items';

const NOW = Date.parse('2026-01-01T12:00:00Z');

function item(n: number): LocationItem {
  return locationItem(n, {
    driver: n === 7 ? 'Maria Souza' : null,
    fixTime: new Date(NOW - 5000).toISOString(),
    receivedAt: new Date(NOW - 4000).toISOString(),
  });
}
const fleet = (count: number) => Array.from({ length: count }, (_, n) => item(n));

beforeAll(() => {
  // The virtualiser lays rows out in the list's box: give it one.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(640);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(360);
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
    DOMRect.fromRect({ x: 0, y: 0, width: 360, height: 640 }),
  );
});
afterEach(cleanup);

function List({
  items,
  onChoose = () => {},
  onDismiss,
  selectedId = null,
}: {
  items: LocationItem[];
  onChoose?(id: string): void;
  onDismiss?(): void;
  selectedId?: string | null;
}) {
  return (
    <VehicleList
      items={items}
      selectedId={selectedId}
      onChoose={onChoose}
      onDismiss={onDismiss}
      now={NOW}
    />
  );
}

const grid = () => screen.getByRole('grid', { name: 'Veículos' });
const rowCount = () => within(grid()).queryAllByRole('row').length;

describe('VehicleList', () => {
  it('counts, searches by plate as typed and by driver, and chooses a row', async () => {
    const onChoose = vi.fn();
    render(<List items={fleet(500)} onChoose={onChoose} />);
    expect(await screen.findByText('500 veículos')).toBeTruthy();
    // Virtualised: only the rows in view are in the document.
    expect(rowCount()).toBeGreaterThan(0);
    expect(rowCount()).toBeLessThan(100);

    const search = screen.getByRole('searchbox', { name: 'Buscar veículo' });
    fireEvent.change(search, { target: { value: 'abc-0007' } });
    expect(await screen.findByText('1 de 500 veículos')).toBeTruthy();
    fireEvent.change(search, { target: { value: 'maria' } });
    expect(await screen.findByText('1 de 500 veículos')).toBeTruthy();
    const row = within(grid()).getByRole('row', { name: /ABC0007/ });
    await act(async () => {
      fireEvent.pointerDown(row, { pointerType: 'mouse', button: 0 });
      fireEvent.pointerUp(row, { pointerType: 'mouse', button: 0 });
      fireEvent.click(row);
    });
    expect(onChoose).toHaveBeenCalledWith('v7');

    // Cleared: every vehicle is back (a remount), the list still answers.
    fireEvent.change(search, { target: { value: '' } });
    expect(await screen.findByText('500 veículos')).toBeTruthy();
    expect(within(grid()).getByRole('row', { name: /ABC0000/ })).toBeTruthy();
  });

  it('mounts the grid anew only when many rows appear at once', async () => {
    const { rerender } = render(<List items={[]} />);
    expect(await screen.findByText('Nenhum veículo com posição ainda.')).toBeTruthy();
    const empty = grid();

    rerender(<List items={fleet(REMOUNT_AT + 50)} />);
    expect(await screen.findByText(`${REMOUNT_AT + 50} veículos`)).toBeTruthy();
    const full = grid();
    expect(full).not.toBe(empty);

    // A few more vehicles, and new fixes of all: the same grid, updated.
    const more = fleet(REMOUNT_AT + 60).map((v) => ({ ...v, speed: 50 }));
    rerender(<List items={more} />);
    expect(await screen.findByText(`${REMOUNT_AT + 60} veículos`)).toBeTruthy();
    expect(grid()).toBe(full);
  });

  it('lets the keyboard cross the rows without choosing; Enter chooses, Escape closes', async () => {
    const onChoose = vi.fn();
    const onDismiss = vi.fn();
    render(<List items={fleet(5)} onChoose={onChoose} onDismiss={onDismiss} selectedId="v0" />);
    expect(await screen.findByText('5 veículos')).toBeTruthy();
    const first = within(grid()).getByRole('row', { name: /ABC0000/ });
    await act(async () => first.focus());
    await act(async () => {
      fireEvent.keyDown(document.activeElement ?? first, { key: 'ArrowDown' });
      fireEvent.keyUp(document.activeElement ?? first, { key: 'ArrowDown' });
    });
    const second = within(grid()).getByRole('row', { name: /ABC0001/ });
    expect(document.activeElement).toBe(second);
    expect(onChoose).not.toHaveBeenCalled();

    await act(async () => {
      fireEvent.keyDown(second, { key: 'Enter' });
      fireEvent.keyUp(second, { key: 'Enter' });
    });
    expect(onChoose).toHaveBeenCalledWith('v1');

    await act(async () => {
      fireEvent.keyDown(second, { key: 'Escape' });
    });
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});
