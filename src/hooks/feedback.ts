/**
 * How screens report what happened: a failed call as the spec's error toast (a title of
 * ours, the server's message), writes that need the network, and the toasts of a load.
 */
import { useEffect } from 'react';
import { toClientError } from '../api/errors';
import { t } from '../i18n/pt-BR';
import { toast } from '../ui/feedback/toasts';

const offline = () => typeof navigator !== 'undefined' && !navigator.onLine;

export async function toastError(title: string, error: unknown): Promise<string> {
  const failure = await toClientError(error);
  // Offline the badge already says so; screens read the mirror instead of erroring.
  if (!(failure.code === 'NETWORK' && offline())) toast.error(title, failure.message);
  return failure.message;
}

/** Writes need the network: says so and returns false when offline. */
export function requireOnline(): boolean {
  if (offline()) {
    toast.warning(t.network.writeNeedsNetwork);
    return false;
  }
  return true;
}

/** Shows `title` with the server's message once for each new failure of a load. */
export function useErrorToast(error: unknown, title: string): void {
  useEffect(() => {
    if (error) void toastError(title, error);
  }, [error, title]);
}

/** While `active`, a shared loading toast with `title` is shown (SPEC §8 'Carregando …'). */
export function useLoadingToast(active: boolean, title: string): void {
  useEffect(() => (active ? toast.loading(title) : undefined), [active, title]);
}
