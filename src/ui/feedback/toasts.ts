/**
 * The one toast queue (SPEC §8/§9): styles success, error, warning, alert and blank; at most
 * 20 at a time (the oldest goes first); error and blank last 4 s, success 2 s; warning and
 * alert stay until closed with 'Fechar', and alert also offers 'Ver alertas'. A sticky alert (a
 * panic) has no 'Fechar': it stays until its own action (acknowledging it) succeeds.
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
  /**
   * A sticky alert: no 'Fechar', not closed by 'Fechar todas' nor by 'Ver alertas', always
   * shown in full. It closes when `action` resolves true.
   */
  sticky?: { label: string; action: () => Promise<boolean> } | undefined;
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
    // The oldest goes first, but never a sticky one (it waits for its acknowledgement).
    const oldest = [...visible].reverse().find((item) => !item.content.sticky);
    if (oldest) toastQueue.close(oldest.key);
  }
  const timeout = TOAST_DURATIONS[content.kind];
  return toastQueue.add(content, timeout ? { timeout } : {});
}

/** Loading notices by title, shared by every screen that waits on the same thing. */
const loading = new Map<string, { count: number; key: string }>();

export const toast = {
  success: (title: string, description?: string) => show({ kind: 'success', title, description }),
  error: (title: string, description?: string) => show({ kind: 'error', title, description }),
  warning: (title: string, description?: string) => show({ kind: 'warning', title, description }),
  blank: (title: string, description?: string) => show({ kind: 'blank', title, description }),
  alert: (title: string, description?: string, route: string = ALERTS_HISTORY_ROUTE) =>
    show({ kind: 'alert', title, description, route }),
  /** An alert that stays until `sticky.action` succeeds (see ToastContent.sticky). */
  sticky: (
    title: string,
    description: string | undefined,
    sticky: NonNullable<ToastContent['sticky']>,
    route: string = ALERTS_HISTORY_ROUTE,
  ) => show({ kind: 'alert', title, description, route, sticky }),
  /**
   * A blank toast that stays while something loads ('Carregando veículos...'). Screens that
   * load the same thing at once share one toast; it closes when the last of them calls the
   * function returned.
   */
  loading(title: string): () => void {
    const shown = loading.get(title);
    if (shown) shown.count += 1;
    else loading.set(title, { count: 1, key: toastQueue.add({ kind: 'blank', title }) });
    let done = false;
    return () => {
      const current = loading.get(title);
      if (done || !current) return;
      done = true;
      current.count -= 1;
      if (current.count > 0) return;
      loading.delete(title);
      toastQueue.close(current.key);
    };
  },
  close: (key: string) => toastQueue.close(key),
  /** Closes every alert and warning (they stay until closed): 'Fechar todas'. */
  closeLasting: () => {
    for (const item of toastQueue.visibleToasts)
      if (
        (item.content.kind === 'alert' || item.content.kind === 'warning') &&
        !item.content.sticky
      )
        toastQueue.close(item.key);
  },
  clear: () => {
    loading.clear();
    for (const item of toastQueue.visibleToasts) toastQueue.close(item.key);
  },
};
