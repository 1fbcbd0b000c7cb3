/**
 * Alert e-mails, grouped: one message per rule per minute with every alert of that minute,
 * to the rule's `emailDelivery` list, through the existing mailer. The notifier only writes
 * an outbox row in the transaction that stored the alert (so none is lost or doubled); a
 * periodic job in every process sends the minutes that are over: it claims them with a lease
 * (`for update skip locked`), sends, and deletes what it sent. A failed send is retried later;
 * a process that dies holding a claim loses it when the lease expires.
 */
import { ALERT_TYPE_LABELS, type AlertType, alertLabel } from '../../src/contract';
import { localDateTime } from '../../src/lib/local-time';
import { TIME_ZONE } from '../../src/lib/schedule';
import type { Mail, Mailer } from '../mail/mailer';
import type { Db } from '../platform/db/client';
import type { Logger } from '../platform/log';
import type { AlertNotifier } from './notifier';
import { enqueueMail } from './queries/alert-engine';
import {
  alertsForMail,
  claimMail,
  finishMail,
  type MailAlertRow,
  retryMail,
} from './queries/alert-mail';

export const HISTORY_PATH = '/fleet-management/alerts/alerts-history';
/** A minute is sent this long after it ends (alerts committing at its last instant). */
const GRACE_MS = 5000;
const LEASE_MS = 5 * 60_000;
const RETRY_MS = 60_000;

export const mailNotifier: AlertNotifier = {
  name: 'email',
  async enqueue(tx, alerts) {
    await enqueueMail(
      tx,
      alerts
        .filter((a) => !a.late && a.ruleId && a.emailDelivery.trim() !== '')
        .map((a) => ({ alertId: a.id, ruleId: a.ruleId ?? '', createdAt: new Date(a.createdAt) })),
    );
  },
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const placeUrl = (lat: number, lon: number) =>
  `https://www.openstreetmap.org/?mlat=${lat.toFixed(6)}&mlon=${lon.toFixed(6)}#map=17/${lat.toFixed(6)}/${lon.toFixed(6)}`;

function alertSummary(alert: MailAlertRow): string {
  const d = alert.details;
  const label =
    alert.type in ALERT_TYPE_LABELS ? alertLabel(alert.type as AlertType, d) : alert.type;
  const extra: string[] = [];
  // What is due or expiring, and when.
  if (typeof d.planName === 'string') extra.push(d.planName);
  if (typeof d.label === 'string' && typeof d.expiry === 'string')
    extra.push(`${d.label}, vencimento ${d.expiry.split('-').reverse().join('/')}`);
  if (typeof d.geofenceName === 'string') extra.push(`cerca ${d.geofenceName}`);
  if (alert.type === 'OVERSPEED' && typeof d.speed === 'number')
    extra.push(`${Math.round(d.speed)} km/h (limite ${Math.round(Number(d.limit))} km/h)`);
  else if (typeof d.value === 'number') extra.push(`leitura ${d.value}, limite ${d.threshold}`);
  return extra.length ? `${label} (${extra.join('; ')})` : label;
}

/** The grouped message of one rule's minute (pt-BR, text and HTML). */
export function alertMail(
  rule: { name: string; emailDelivery: string },
  minute: Date,
  alerts: MailAlertRow[],
  publicUrl: string,
): Mail {
  const at = minute.toLocaleTimeString('pt-BR', {
    timeZone: TIME_ZONE,
    hour: '2-digit',
    minute: '2-digit',
  });
  const day = minute.toLocaleDateString('pt-BR', { timeZone: TIME_ZONE });
  const count = alerts.length === 1 ? '1 alerta' : `${alerts.length} alertas`;
  const history = `${publicUrl}${HISTORY_PATH}`;
  const items = alerts.map((a) => {
    const when = localDateTime(a.fixTime ?? a.createdAt);
    const place =
      a.latitude !== null && a.longitude !== null ? placeUrl(a.latitude, a.longitude) : undefined;
    // An alert about a driver (a driver's document) names the driver; its link opens the
    // history on its type, the history having no driver filter.
    return a.vehicleId === null
      ? {
          vehicle: `Motorista ${a.driverName ?? ''}`.trim(),
          what: alertSummary(a),
          when,
          place,
          link: `${history}?type=${encodeURIComponent(a.type)}`,
        }
      : {
          vehicle: `${a.plate ?? 'Veículo'}${a.vehicleName ? ` (${a.vehicleName})` : ''}`,
          what: alertSummary(a),
          when,
          place,
          link: `${history}?vehicleId=${a.vehicleId}`,
        };
  });
  const text = [
    `Regra "${rule.name}": ${count} às ${at} de ${day} (horário de Brasília).`,
    '',
    ...items.map(
      (i) =>
        `- ${i.vehicle}: ${i.what}, ${i.when}${i.place ? `\n  Local: ${i.place}` : ''}\n  Histórico: ${i.link}`,
    ),
    '',
    `Ver todos os alertas: ${history}`,
    '',
    'Você recebe este e-mail porque o seu endereço está na lista de envio desta regra de alerta no Rastro.',
  ].join('\n');
  const rows = items
    .map(
      (i) => `<tr>
<td style="padding:6px 8px;border-bottom:1px solid #dde3ea"><strong>${escapeHtml(i.vehicle)}</strong></td>
<td style="padding:6px 8px;border-bottom:1px solid #dde3ea">${escapeHtml(i.what)}</td>
<td style="padding:6px 8px;border-bottom:1px solid #dde3ea">${escapeHtml(i.when)}</td>
<td style="padding:6px 8px;border-bottom:1px solid #dde3ea">${i.place ? `<a href="${escapeHtml(i.place)}">Ver no mapa</a>` : '—'} · <a href="${escapeHtml(i.link)}">Histórico</a></td>
</tr>`,
    )
    .join('\n');
  const html = `<!doctype html><html lang="pt-BR"><body style="font-family:system-ui,sans-serif;color:#1b2430">
<h1 style="font-size:20px">${escapeHtml(`${count}: ${rule.name}`)}</h1>
<p>${escapeHtml(`${count} às ${at} de ${day} (horário de Brasília).`)}</p>
<table style="border-collapse:collapse;font-size:14px">
<thead><tr><th align="left">${alerts.some((a) => a.vehicleId === null) ? 'Veículo ou motorista' : 'Veículo'}</th><th align="left">Alerta</th><th align="left">Quando</th><th align="left">Onde</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p><a href="${escapeHtml(history)}" style="display:inline-block;background:#0b5cad;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Ver alertas</a></p>
<p style="font-size:12px;color:#5b6675">Você recebe este e-mail porque o seu endereço está na lista de envio desta regra de alerta no Rastro.</p>
</body></html>`;
  return {
    to: rule.emailDelivery,
    subject: `Rastro: ${count} — ${rule.name} (${at})`,
    text,
    html,
  };
}

export function createAlertMail(db: Db, mailer: Mailer, publicUrl: string, log: Logger) {
  /** Sends every ended minute waiting in the outbox; returns how many messages went out. */
  async function flush(now = new Date()): Promise<number> {
    const cutoff = new Date(Math.floor((now.getTime() - GRACE_MS) / 60_000) * 60_000);
    const claimed = await claimMail(db, cutoff, now, new Date(now.getTime() + LEASE_MS));
    if (claimed.length === 0) return 0;
    const alerts = new Map(
      (
        await alertsForMail(
          db,
          claimed.map((c) => c.alertId),
        )
      ).map((a) => [a.id, a]),
    );
    const groups = new Map<string, typeof claimed>();
    for (const row of claimed) {
      const key = `${row.ruleId}@${row.minute.getTime()}`;
      const list = groups.get(key) ?? [];
      list.push(row);
      groups.set(key, list);
    }
    let sent = 0;
    for (const rows of groups.values()) {
      const ids = rows.map((r) => r.id);
      const items = rows.flatMap((r) => alerts.get(r.alertId) ?? []);
      const first = items[0];
      const list = first?.emailDelivery?.trim() ?? '';
      // The rule was removed or its list emptied meanwhile: nothing to send.
      if (!first || !list || !first.ruleName) {
        await finishMail(db, ids);
        continue;
      }
      try {
        await mailer.send(
          alertMail(
            { name: first.ruleName, emailDelivery: list },
            rows[0]?.minute ?? now,
            items,
            publicUrl,
          ),
        );
        await finishMail(db, ids);
        sent += 1;
      } catch (err) {
        log.warn('alerts: e-mail not sent, will retry', { rule: first.ruleId, err });
        await retryMail(db, ids, new Date(now.getTime() + RETRY_MS));
      }
    }
    return sent;
  }
  return {
    flush,
  };
}
export type AlertMail = ReturnType<typeof createAlertMail>;
