// @vitest-environment happy-dom
/**
 * Toasts as SPEC §8/§9 describe them, rendered by the real Toaster inside a router: styles,
 * durations, the 20-toast cap, 'Fechar' on warning and alert, 'Ver alertas' on alert.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LINGER_MS, PEEK_MS, Toaster } from '../../src/ui/feedback/Toaster';
import { MAX_TOASTS, TOAST_DURATIONS, toast, toastQueue } from '../../src/ui/feedback/toasts';

afterEach(() => {
  act(() => toast.clear());
  cleanup();
});

function renderToaster() {
  const router = createMemoryRouter(
    [
      { path: '/', element: <Toaster /> },
      { path: '/fleet-management/alerts/alerts-history', element: <h1>Histórico de alertas</h1> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('toasts', () => {
  it('uses the spec durations', () => {
    expect(TOAST_DURATIONS).toMatchObject({ error: 4000, success: 2000, blank: 4000 });
    act(() => {
      toast.error('Erro ao buscar usuários', 'Falhou');
      toast.success('Salvo');
    });
    const timeouts = toastQueue.visibleToasts.map((item) => [item.content.kind, item.timeout]);
    expect(timeouts).toEqual(
      expect.arrayContaining([
        ['error', 4000],
        ['success', 2000],
      ]),
    );
  });

  it('keeps at most 20, dropping the oldest', () => {
    act(() => {
      for (let i = 1; i <= MAX_TOASTS + 5; i++) toast.blank(`Aviso ${i}`);
    });
    const titles = toastQueue.visibleToasts.map((item) => item.content.title);
    expect(titles).toHaveLength(20);
    expect(titles).toContain('Aviso 25');
    expect(titles).not.toContain('Aviso 5');
  });

  it("offers 'Fechar' on warnings, which closes them", () => {
    renderToaster();
    act(() => {
      toast.warning('Sinal perdido', 'Veículo ABC1D23 sem posição há 30 minutos');
    });
    expect(screen.getByText('Sinal perdido')).toBeTruthy();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Fechar' })));
    expect(toastQueue.visibleToasts).toHaveLength(0);
  });

  it("offers 'Ver alertas' on alerts, which opens the alert history", () => {
    const router = renderToaster();
    act(() => {
      toast.alert('Excesso de velocidade', 'ABC1D23 a 112 km/h');
    });
    expect(screen.getByRole('button', { name: 'Fechar' })).toBeTruthy();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Ver alertas' })));
    expect(router.state.location.pathname).toBe('/fleet-management/alerts/alerts-history');
  });

  it('keeps a sticky alert until its action succeeds, whatever else closes', async () => {
    renderToaster();
    let answer = false;
    const action = vi.fn(async () => answer);
    act(() => {
      toast.sticky('Pânico — ABC1D23', 'Caminhão 01 · 14:02', { label: 'Reconhecer', action });
      toast.alert('Excesso de velocidade', 'ABC1D23 a 112 km/h');
    });
    // No 'Fechar' of its own; 'Fechar todas' and the oldest-first cap pass it by.
    const sticky = screen.getByText('Pânico — ABC1D23').closest('.toast') as HTMLElement;
    expect(within(sticky).queryByRole('button', { name: 'Fechar' })).toBeNull();
    act(() => toast.closeLasting());
    act(() => {
      for (let i = 1; i <= MAX_TOASTS + 2; i++) toast.blank(`Aviso ${i}`);
    });
    expect(toastQueue.visibleToasts.map((t) => t.content.title)).toContain('Pânico — ABC1D23');
    // A failed acknowledgement leaves it up; a good one closes it.
    await act(async () => {
      fireEvent.click(within(sticky).getByRole('button', { name: 'Reconhecer' }));
    });
    expect(action).toHaveBeenCalledTimes(1);
    expect(toastQueue.visibleToasts.map((t) => t.content.title)).toContain('Pânico — ABC1D23');
    answer = true;
    await act(async () => {
      fireEvent.click(within(sticky).getByRole('button', { name: 'Reconhecer' }));
    });
    expect(toastQueue.visibleToasts.map((t) => t.content.title)).not.toContain('Pânico — ABC1D23');
  });

  it('shows the newest few; the topmost shown tells how many wait, and closes the lasting ones', () => {
    renderToaster();
    act(() => {
      toast.success('Salvo');
      for (let i = 1; i <= 5; i++) toast.alert(`Alerta ${i}`);
    });
    const classOf = (title: string) =>
      screen
        .getByText(title)
        .closest('.toast')
        ?.className.replace(/^toast toast-\w+( toast-lasting)? ?/, '');
    // Newest first: two alerts on a phone, three on a wider screen; the rest wait. What closes
    // by itself shows whatever its place.
    expect(
      ['Alerta 5', 'Alerta 4', 'Alerta 3', 'Alerta 2', 'Alerta 1', 'Salvo'].map(classOf),
    ).toEqual(['', '', 'toast-waiting-phone', 'toast-waiting', 'toast-waiting', '']);
    // The count is of the alerts and warnings that wait.
    const phoneLine = screen.getByText('Mais 3 notificações');
    expect(phoneLine.closest('.toast')?.textContent).toContain('Alerta 4');
    expect(phoneLine.closest('.toast-more')?.className).toContain('toast-more-phone');
    const wideLine = screen.getByText('Mais 2 notificações');
    expect(wideLine.closest('.toast')?.textContent).toContain('Alerta 3');
    expect(wideLine.closest('.toast-more')?.className).toContain('toast-more-wide');

    const closeAll = screen.getAllByRole('button', { name: 'Fechar todas' })[0];
    if (!closeAll) throw new Error('sem Fechar todas');
    act(() => fireEvent.click(closeAll));
    // The alerts stay until closed, so they go; the success toast goes on its own.
    expect(toastQueue.visibleToasts.map((item) => item.content.title)).toEqual(['Salvo']);
    expect(screen.queryByText(/Mais \d notificaç/)).toBeNull();
  });

  it('keeps the toast someone is using shown when newer ones come', () => {
    renderToaster();
    act(() => {
      for (let i = 1; i <= 3; i++) toast.alert(`Alerta ${i}`);
    });
    const oldest = () => screen.getByText('Alerta 1').closest('.toast');
    const close = oldest()?.querySelector<HTMLElement>('[slot="close"]');
    if (!close) throw new Error('sem Fechar');
    act(() => close.focus());
    act(() => {
      toast.alert('Alerta 4');
    });
    expect(oldest()?.className).not.toContain('toast-waiting');
    // Once the focus leaves, it waits like the others.
    act(() => close.blur());
    expect(oldest()?.className).toContain('toast-waiting');
  });
});

describe('the stack at rest', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const line = () => document.querySelector('.toast-line') as HTMLElement | null;
  const shown = (title: string) => {
    const element = screen.getByText(title).closest('.toast');
    return element !== null && !element.className.includes('toast-settled');
  };

  it('shows a new alert in full, then settles into one line that opens it again', () => {
    vi.useFakeTimers();
    renderToaster();
    act(() => {
      for (let i = 1; i <= 4; i++) toast.alert(`Alerta ${i}`, `ABC1D23 · 10:0${i}`);
    });
    // In full at first: the region is the landmark, each alert a live alert.
    expect(screen.getByRole('region', { name: 'Notificações' })).toBeTruthy();
    expect(shown('Alerta 4')).toBe(true);
    expect(line()).toBeNull();
    act(() => vi.advanceTimersByTime(PEEK_MS - 100));
    expect(shown('Alerta 4')).toBe(true);
    act(() => vi.advanceTimersByTime(200));
    // At rest: the alerts wait, hidden, counted on one line with the SPEC's texts.
    for (let i = 1; i <= 4; i++) expect(shown(`Alerta ${i}`)).toBe(false);
    // What closes by itself still shows in full.
    act(() => {
      toast.success('Salvo');
    });
    expect(shown('Salvo')).toBe(true);
    expect(line()).not.toBeNull();
    const rest = line();
    if (!rest) throw new Error('sem a linha');
    expect(rest.closest('[role="region"]')?.getAttribute('aria-label')).toBe('Notificações');
    const count = within(rest).getByRole('button', { name: 'Mostrar 4 alertas' });
    expect(count.textContent).toContain('4 alertas');
    expect(within(rest).getByRole('button', { name: 'Ver alertas' })).toBeTruthy();
    expect(within(rest).getByRole('button', { name: 'Fechar todas' })).toBeTruthy();
    expect(toastQueue.visibleToasts.filter((item) => item.content.kind === 'alert')).toHaveLength(
      4,
    );

    // Its count opens the stack, focus on the newest.
    act(() => fireEvent.click(count));
    act(() => vi.advanceTimersByTime(0));
    expect(line()).toBeNull();
    expect(shown('Alerta 4')).toBe(true);
    expect(document.activeElement?.textContent).toContain('Alerta 4');
    // While the focus is in it, it stays open; once it leaves, it settles again.
    act(() => vi.advanceTimersByTime(PEEK_MS * 3));
    expect(shown('Alerta 4')).toBe(true);
    act(() => (document.activeElement as HTMLElement).blur());
    act(() => vi.advanceTimersByTime(LINGER_MS + 100));
    expect(shown('Alerta 4')).toBe(false);

    // A new alert shows in full again (and is announced: it is mounted as a live alert).
    act(() => {
      toast.alert('Alerta 5');
    });
    expect(shown('Alerta 5')).toBe(true);
    expect(screen.getByText('Alerta 5').closest('[role="alert"]')).toBeTruthy();
    expect(line()).toBeNull();
  });

  it('stays open under the pointer', () => {
    vi.useFakeTimers();
    renderToaster();
    act(() => {
      toast.warning('Sinal perdido');
    });
    // The pointer over the toasts (the region matches :hover).
    const matches = Element.prototype.matches;
    let hovered = true;
    const spy = vi.spyOn(Element.prototype, 'matches').mockImplementation(function (
      this: Element,
      selector: string,
    ) {
      return selector === ':hover' ? hovered : matches.call(this, selector);
    });
    // Resting there as it came up, it still settles…
    act(() => vi.advanceTimersByTime(PEEK_MS + 100));
    expect(shown('Sinal perdido')).toBe(false);
    act(() => {
      toast.warning('Sinal perdido de novo');
    });
    // …moved over it, it stays.
    act(() =>
      fireEvent.pointerMove(screen.getByText('Sinal perdido de novo'), { pointerType: 'mouse' }),
    );
    act(() => vi.advanceTimersByTime(PEEK_MS * 2));
    expect(shown('Sinal perdido de novo')).toBe(true);
    hovered = false;
    act(() => vi.advanceTimersByTime(LINGER_MS + 100));
    spy.mockRestore();
    expect(shown('Sinal perdido de novo')).toBe(false);
    // Warnings only: counted as such, no 'Ver alertas'.
    const rest = line();
    if (!rest) throw new Error('sem a linha');
    expect(within(rest).getByRole('button', { name: 'Mostrar 2 avisos' })).toBeTruthy();
    expect(within(rest).queryByRole('button', { name: 'Ver alertas' })).toBeNull();
    act(() => fireEvent.click(within(rest).getByRole('button', { name: 'Fechar todas' })));
    expect(toastQueue.visibleToasts).toHaveLength(0);
  });

  it("'Ver alertas' on the line opens the history and closes the alert toasts", () => {
    vi.useFakeTimers();
    const router = renderToaster();
    act(() => {
      toast.alert('Alerta 1');
      toast.alert('Alerta 2');
      toast.warning('Sinal perdido');
    });
    act(() => vi.advanceTimersByTime(PEEK_MS + 100));
    const rest = line();
    if (!rest) throw new Error('sem a linha');
    expect(within(rest).getByRole('button', { name: 'Mostrar 3 notificações' })).toBeTruthy();
    act(() => fireEvent.click(within(rest).getByRole('button', { name: 'Ver alertas' })));
    expect(router.state.location.pathname).toBe('/fleet-management/alerts/alerts-history');
    expect(toastQueue.visibleToasts.map((item) => item.content.title)).toEqual(['Sinal perdido']);
  });
});
