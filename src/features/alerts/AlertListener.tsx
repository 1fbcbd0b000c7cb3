/**
 * The app-wide alert listener: while signed in, online and visible it follows the live
 * stream's alert events (`events=alerts`), shows each new alert as an alert toast ('Fechar'
 * and 'Ver alertas', SPEC §9) and refreshes every alert read (the top bar's count, the
 * history, the map's popup). A burst becomes one toast; late alerts (their fix received more
 * than 15 minutes after its time) update the lists without a toast. After any drop it
 * reconnects at once when possible, and reads the lists again (alerts are not replayed).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { acknowledgeAlerts, followAlerts } from '../../api/alerts';
import { keys } from '../../api/keys';
import { ALERT_TYPE_LABELS, type Alert, STICKY_ALERT_TYPES } from '../../contract';
import { useInvalidate } from '../../hooks/useInvalidate';
import { useOnline } from '../../hooks/useOnline';
import { t } from '../../i18n/pt-BR';
import { localClock } from '../../lib/local-time';
import { toast } from '../../ui/feedback/toasts';
import { firstShowing } from './shown';

const BURST_MS = 600;
const MAX_SEPARATE = 3;
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];

function subscribeVisibility(callback: () => void) {
  document.addEventListener('visibilitychange', callback);
  return () => document.removeEventListener('visibilitychange', callback);
}

/** The type and whom it is about: the vehicle, or the driver (a driver's document). */
export function alertToastTitle(alert: Alert): string {
  const subject =
    alert.vehicleId === null
      ? (alert.driverName ?? t.screens.alertListener.motorista)
      : (alert.plate ?? alert.vehicleName ?? t.screens.alertListener.veiculo);
  return `${ALERT_TYPE_LABELS[alert.type]} — ${subject}`;
}

/**
 * A panic stays on screen until someone acknowledges it here ('Reconhecer'): never folded
 * into a burst, never closed by 'Fechar todas'. A failed acknowledgement leaves it up.
 */
function showSticky(alert: Alert, onAcknowledged: () => void) {
  const when = localClock(alert.fixTime ?? alert.createdAt);
  toast.sticky(alertToastTitle(alert), [alert.vehicleName, when].filter(Boolean).join(' · '), {
    label: t.alerts.acknowledge,
    action: async () => {
      try {
        await acknowledgeAlerts([alert.id]);
        onAcknowledged();
        return true;
      } catch {
        toast.error(t.alerts.ackError);
        return false;
      }
    },
  });
}

function show(alerts: Alert[], onAcknowledged: () => void) {
  const incoming = alerts.filter((a) => !a.late && firstShowing(a.id));
  for (const alert of incoming)
    if (STICKY_ALERT_TYPES.includes(alert.type)) showSticky(alert, onAcknowledged);
  const fresh = incoming.filter((a) => !STICKY_ALERT_TYPES.includes(a.type));
  if (fresh.length > MAX_SEPARATE) {
    toast.alert(t.alerts.many(fresh.length), t.alerts.manyText);
    return;
  }
  for (const alert of fresh) {
    const when = localClock(alert.fixTime ?? alert.createdAt);
    // Which document is expiring, when it is that alert (the CNH of the driver named above).
    const which = alert.document?.label;
    toast.alert(
      alertToastTitle(alert),
      [alert.vehicleName, which, when].filter(Boolean).join(' · '),
    );
  }
}

export function AlertListener({ enabled }: { enabled: boolean }) {
  const online = useOnline();
  const visible = useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState === 'visible',
    () => true,
  );
  const invalidate = useInvalidate();

  useEffect(() => {
    if (!enabled || !online || !visible) return;
    const controller = new AbortController();
    const { signal } = controller;
    let pending: Alert[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const batch = pending;
      pending = [];
      show(batch, () => void invalidate(keys.alerts));
      void invalidate(keys.alerts);
    };
    void (async () => {
      let attempt = 0;
      while (!signal.aborted) {
        try {
          await followAlerts({
            signal,
            onReady: () => {
              attempt = 0;
              void invalidate(keys.alerts);
            },
            onAlert: (alert) => {
              pending.push(alert);
              timer ??= setTimeout(flush, BURST_MS);
            },
          });
        } catch {
          if (signal.aborted) break;
        }
        const delay = RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)] ?? 30_000;
        await new Promise<void>((resolve) => {
          const wait = setTimeout(resolve, delay);
          signal.addEventListener('abort', () => {
            clearTimeout(wait);
            resolve();
          });
        });
      }
    })();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [enabled, online, visible, invalidate]);

  return null;
}
