// @vitest-environment happy-dom
/**
 * Toasts as SPEC §8/§9 describe them, rendered by the real Toaster inside a router: styles,
 * durations, the 20-toast cap, 'Fechar' on warning and alert, 'Ver alertas' on alert.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { Toaster } from '../../src/ui/feedback/Toaster';
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
        ?.className.replace(/^toast toast-\w+ ?/, '');
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
