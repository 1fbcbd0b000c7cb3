/**
 * The push notifier the alert engine calls (server/alerts/notifier.ts): after an alert commits,
 * in the process that stored it, every device of every user who sees the alert gets one push
 * (FCM or Web Push, by the token's kind), unless the device turned that alert type off. Late
 * alerts are not pushed. Tokens the push service says are gone are removed. Push failures are
 * only logged (SPEC §8): a push is best-effort, the history and the live stream are the record.
 */
import type { AlertNotifier, StoredAlert } from '../alerts/notifier';
import { type PushKind, pushTargets, removePushTokens } from '../alerts/queries/push';
import type { Config } from '../platform/config';
import type { Db } from '../platform/db/client';
import type { Logger } from '../platform/log';
import { createFcmSender, type SendResult } from './fcm';
import { pushMessage } from './message';
import { createWebPushSender, type VapidKeys } from './webpush';

export interface Push {
  notifier: AlertNotifier;
  /** Sends these alerts now; resolves when every push was answered (tests, the bench). */
  send(alerts: StoredAlert[]): Promise<SendResult>;
}

export function createPush(
  db: Db,
  config: Pick<Config, 'push' | 'outsideTimeoutMs'>,
  keys: VapidKeys,
  log: Logger,
): Push {
  const timeout = config.outsideTimeoutMs;
  const senders: Record<PushKind, ReturnType<typeof createFcmSender> | undefined> = {
    fcm: config.push.firebase ? createFcmSender(config.push.firebase, timeout) : undefined,
    webpush: createWebPushSender(keys, config.push.webPushSubject, timeout, {
      hosts: config.push.endpointHosts,
      insecure: config.push.insecureEndpoints,
    }),
  };

  async function send(alerts: StoredAlert[]): Promise<SendResult> {
    const total: SendResult = { sent: 0, gone: [], failed: 0 };
    const fresh = alerts.filter((a) => !a.late);
    if (fresh.length === 0) return total;
    const targets = await pushTargets(db, fresh);
    for (const alert of fresh) {
      const mine = targets.filter((t) => t.alertId === alert.id);
      if (mine.length === 0) continue;
      const message = pushMessage(alert);
      for (const kind of ['fcm', 'webpush'] as const) {
        const tokens = mine.filter((t) => t.kind === kind).map((t) => t.token);
        if (tokens.length === 0) continue;
        const sender = senders[kind];
        if (!sender) {
          log.debug('push: FCM tokens but no Firebase project configured', { n: tokens.length });
          continue;
        }
        try {
          const result = await sender.send(tokens, message);
          total.sent += result.sent;
          total.failed += result.failed;
          total.gone.push(...result.gone);
        } catch (err) {
          total.failed += tokens.length;
          log.warn('push: not sent', { kind, err });
        }
      }
    }
    if (total.gone.length) {
      const removed = await removePushTokens(db, total.gone);
      log.info('push: tokens removed (gone)', { removed });
    }
    if (total.failed) log.warn('push: some pushes failed', { failed: total.failed });
    return total;
  }

  return {
    send,
    notifier: {
      name: 'push',
      deliver: (alerts) =>
        void send(alerts).catch((err: unknown) => log.warn('push: not sent', { err })),
    },
  };
}
