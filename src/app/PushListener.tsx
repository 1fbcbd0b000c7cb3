/**
 * The push listener (SPEC §2, §4), while signed in. With notification permission granted it
 * makes sure this browser's token is registered (and renewed after 7 days); permission itself
 * is asked only with a gesture: the invitation after sign-in (shared/push/PushInvitation.tsx),
 * Minha conta and the alert history offer 'Ativar notificações'. A push that
 * arrives while the page is visible comes here from the service worker (sw/push.ts; a worker
 * of an earlier version may still forward Firebase's message) and is shown as the alert toast
 * with 'Ver alertas' — never as a second system notification, and once even when the live
 * stream brings the same alert. It also hands the worker the current token to send the
 * acknowledgements made offline when the connection returns, and reads the alerts again once
 * they went.
 */
import { useEffect } from 'react';
import * as v from 'valibot';
import { ACK_QUEUED_EVENT, pendingAcknowledgements, replayAcknowledgements } from '../api/alerts';
import { keys } from '../api/keys';
import { session } from '../api/session';
import { PushAlertSchema } from '../contract';
import { firstShowing } from '../features/alerts/shown';
import { useInvalidate } from '../hooks/useInvalidate';
import { ensurePushToken, pushState } from '../shared/push/push';
import { toast } from '../ui/feedback/toasts';

/**
 * Our alert in a worker message: ours (`RASTRO_PUSH`), or Firebase's (`push-received`), which
 * only a worker of an earlier version still sends until the update prompt replaces it.
 */
function pushedAlert(data: unknown) {
  if (typeof data !== 'object' || data === null) return undefined;
  const message = data as { type?: unknown; alert?: unknown; isFirebaseMessaging?: unknown };
  const candidate =
    message.type === 'RASTRO_PUSH'
      ? message.alert
      : message.isFirebaseMessaging
        ? (data as { data?: unknown }).data
        : undefined;
  const parsed = v.safeParse(PushAlertSchema, candidate);
  return parsed.success ? parsed.output : undefined;
}

const RETRY_ACKS_MS = 5000;

export function PushListener() {
  const invalidate = useInvalidate();

  useEffect(() => {
    if (pushState() === 'granted')
      ensurePushToken().catch((err: unknown) => console.warn('push: token not registered', err));
  }, []);

  useEffect(() => {
    const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!container) return;
    const replay = () => {
      if (navigator.onLine) replayAcknowledgements(session.accessToken());
    };
    // While acknowledgements wait in the worker, it is asked again every few seconds: the
    // 'online' event can come before the worker's own requests get through.
    let retry: ReturnType<typeof setInterval> | undefined;
    const stopTrying = () => {
      if (retry) clearInterval(retry);
      retry = undefined;
    };
    const tick = async () => {
      const left = await pendingAcknowledgements();
      if (left.alertIds.length === 0 && !left.all) stopTrying();
      else replay();
    };
    const keepTrying = () => {
      retry ??= setInterval(() => void tick(), RETRY_ACKS_MS);
      replay();
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown } | null;
      if (data?.type === 'RASTRO_ACKS_SENT') {
        void invalidate(keys.alerts);
        return;
      }
      const alert = pushedAlert(event.data);
      if (!alert) return;
      void invalidate(keys.alerts);
      if (firstShowing(alert.alertId)) toast.alert(alert.title, alert.body, alert.url);
    };
    container.addEventListener('message', onMessage);
    window.addEventListener('online', replay);
    window.addEventListener(ACK_QUEUED_EVENT, keepTrying);
    // A renewed token (after an expired one was refused) sends what is still queued.
    const stopSession = session.subscribe(replay);
    void pendingAcknowledgements().then((left) => {
      if (left.alertIds.length || left.all) keepTrying();
    });
    return () => {
      container.removeEventListener('message', onMessage);
      window.removeEventListener('online', replay);
      window.removeEventListener(ACK_QUEUED_EVENT, keepTrying);
      stopSession();
      stopTrying();
    };
  }, [invalidate]);

  return null;
}
