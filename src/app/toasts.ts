/**
 * The one toast queue (SPEC §8/§9): styles success, error, warning, alert and blank; at most
 * 20 at a time (the oldest goes first); error and blank last 4 s, success 2 s; warning and
 * alert stay until closed with 'Fechar', and alert also offers 'Ver alertas'.
 * Plain TypeScript so that the API client can raise toasts without React.
 */
import { UNSTABLE_ToastQueue as ToastQueue } from 'react-aria-components';

export type ToastKind = 'success' | 'error' | 'warning' | 'alert' | 'blank';

export interface ToastContent {
  kind: ToastKind;
  title: string;
  description?: string | undefined;
  /** Where 'Ver alertas' leads; alert toasts default to the alert history. */
  route?: string | undefined;
}

export const MAX_TOASTS = 20;
export const TOAST_DURATIONS: Record<ToastKind, number | undefined> = {
  error: 4000,
  success: 2000,
  blank: 4000,
  warning: undefined,
  alert: undefined,
};
export const ALERTS_HISTORY_ROUTE = '/fleet-management/alerts/alerts-history';

export const toastQueue = new ToastQueue<ToastContent>({ maxVisibleToasts: MAX_TOASTS });

function show(content: ToastContent): string {
  const visible = toastQueue.visibleToasts;
  if (visible.length >= MAX_TOASTS) {
    const oldest = visible[visible.length - 1];
    if (oldest) toastQueue.close(oldest.key);
  }
  const timeout = TOAST_DURATIONS[content.kind];
  return toastQueue.add(content, timeout ? { timeout } : {});
}

export const toast = {
  success: (title: string, description?: string) => show({ kind: 'success', title, description }),
  error: (title: string, description?: string) => show({ kind: 'error', title, description }),
  warning: (title: string, description?: string) => show({ kind: 'warning', title, description }),
  blank: (title: string, description?: string) => show({ kind: 'blank', title, description }),
  alert: (title: string, description?: string, route: string = ALERTS_HISTORY_ROUTE) =>
    show({ kind: 'alert', title, description, route }),
  close: (key: string) => toastQueue.close(key),
  clear: () => {
    for (const item of toastQueue.visibleToasts) toastQueue.close(item.key);
  },
};
