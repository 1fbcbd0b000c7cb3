/** Shows a failed call as the spec's error toast: a title of ours, the server's message. */
import { toClientError } from '../api/errors';
import { t } from '../i18n/pt-BR';
import { toast } from './toasts';

export async function toastError(title: string, error: unknown): Promise<string> {
  const failure = await toClientError(error);
  // Offline the badge already says so; screens read the mirror instead of erroring.
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  if (!(failure.code === 'NETWORK' && offline)) toast.error(title, failure.message);
  return failure.message;
}

/** Writes need the network: says so and returns false when offline. */
export function requireOnline(): boolean {
  if (typeof navigator !== 'undefined' && !navigator.onLine) {
    toast.warning(t.network.writeNeedsNetwork);
    return false;
  }
  return true;
}
