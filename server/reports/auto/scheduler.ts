/**
 * The automated reports' scheduler. Each tick (every AUTO_REPORT_CHECK_SECONDS in every server
 * process, and once at start: server/start.ts) plans and sends:
 *
 * - plan: for every active rule, the sends due since the rule was created, up to now
 *   (src/lib/report-schedule.ts) become job rows, one per rule and period; the unique key makes
 *   a period planned by two processes, or by the same one twice, a single row. A server that
 *   was down on Monday at 07:00 plans that Monday when it starts: missed periods are caught up.
 * - send: due jobs are claimed with `for update skip locked` and a lease, so exactly one
 *   process sends each; the file is made, e-mailed (attached, or a link when large), and the
 *   run recorded on the rule ('Último envio: … — enviado' / '— falhou: …'). A failed send is
 *   tried again with back-off (1, 2, 4, 8 minutes) before it is given up.
 *
 * `now` is injected: tests drive the clock.
 */

import type { ReportType } from '../../../src/contract';
import { validateEmailList } from '../../../src/lib/emails';
import { dayStart, reportDay } from '../../../src/lib/report-period';
import { duePeriods, periodSentOn, type ScheduleRule } from '../../../src/lib/report-schedule';
import type { Db } from '../../platform/db/client';
import type { Logger } from '../../platform/log';
import { subtreeIds } from '../../tenancy/queries';
import { storedAlerts } from '../alerts';
import { failureText, type ReportFiles } from '../files/delivery';
import { documentFor } from '../files/documents';
import { type ReportFile, renderReport } from '../files/render';
import {
  type AutoReportRuleRow,
  activeRules,
  claimRuns,
  clientName,
  finishRun,
  planRuns,
  ruleById,
  setLastRun,
} from '../queries/report-files';
import { driversIn, vehiclesIn } from '../queries/reports';

export const MAX_ATTEMPTS = 5;
const LEASE_MS = 15 * 60_000;
const BATCH = 5;
/** After the n-th failed attempt, the next one waits 2^(n-1) minutes. */
export const retryDelayMs = (attempts: number) => 60_000 * 2 ** Math.max(0, attempts - 1);

const scheduleOf = (rule: AutoReportRuleRow): ScheduleRule => ({
  periodicity: rule.periodicity as ScheduleRule['periodicity'],
  sendHour: rule.sendHour,
  weekday: rule.weekday,
  monthDay: rule.monthDay,
});

export function createAutoReports(deps: {
  db: Db;
  files: ReportFiles;
  log: Logger;
  checkMs: number;
}) {
  const { db, files, log } = deps;

  async function plan(now: Date): Promise<number> {
    let planned = 0;
    for (const rule of await activeRules(db)) {
      const due = duePeriods(scheduleOf(rule), now, rule.createdAt);
      planned += (
        await planRuns(
          db,
          due.map((d) => ({ ruleId: rule.id, ...d })),
        )
      ).length;
    }
    return planned;
  }

  async function send(
    job: { id: string; ruleId: string; periodStart: Date; periodEnd: Date; attempts: number },
    now: Date,
  ): Promise<'sent' | 'retry' | 'failed'> {
    const rule = await ruleById(db, job.ruleId);
    if (!rule) {
      await finishRun(db, job.id, { status: 'failed', error: 'Regra removida' });
      return 'failed';
    }
    let file: ReportFile | undefined;
    const lastRun = (status: 'sent' | 'failed', error: string | null) => ({
      at: now.toISOString(),
      status,
      error,
      periodStart: job.periodStart.toISOString(),
      periodEnd: job.periodEnd.toISOString(),
    });
    try {
      const clientIds = await subtreeIds(db, rule.clientId);
      const [vehicles, drivers] = await Promise.all([
        vehiclesIn(db, rule.vehicleIds, clientIds),
        driversIn(db, rule.driverIds, clientIds),
      ]);
      const format = rule.format === 'pdf' ? 'pdf' : 'excel';
      const doc = await documentFor(
        rule.reportType as ReportType,
        {
          db,
          alerts: storedAlerts,
          customer: await clientName(db, rule.clientId),
          beginAt: job.periodStart,
          endAt: job.periodEnd,
          generatedAt: now,
        },
        { vehicles, drivers, clientIds },
        format,
      );
      doc.title = `${doc.title} — ${rule.name}`;
      file = await renderReport(doc, format);
      await files.send(doc, file, validateEmailList(rule.emailDelivery).emails, rule.clientId, now);
      await finishRun(db, job.id, { status: 'sent', at: now });
      await setLastRun(db, rule.id, lastRun('sent', null));
      return 'sent';
    } catch (err) {
      const error = failureText(err);
      log.warn('relatório automático não enviado', { ruleId: rule.id, attempt: job.attempts, err });
      await setLastRun(db, rule.id, lastRun('failed', error));
      if (job.attempts < MAX_ATTEMPTS) {
        const retryAt = new Date(now.getTime() + retryDelayMs(job.attempts));
        await finishRun(db, job.id, { status: 'pending', error, retryAt });
        return 'retry';
      }
      await finishRun(db, job.id, { status: 'failed', error });
      return 'failed';
    } finally {
      await file?.remove();
    }
  }

  async function sendDue(now: Date, onlyId?: string) {
    const outcome = { sent: 0, retry: 0, failed: 0 };
    for (;;) {
      const jobs = await claimRuns(db, now, new Date(now.getTime() + LEASE_MS), BATCH, onlyId);
      if (jobs.length === 0) return outcome;
      for (const job of jobs) outcome[await send(job, now)] += 1;
      if (onlyId) return outcome;
    }
  }

  /** Plans what is due and sends it; answers what happened (tests read it). */
  async function tick(now = new Date()) {
    const planned = await plan(now);
    return { planned, ...(await sendDue(now)) };
  }

  /** 'Enviar agora': the rule's last complete period, sent at once, outside the schedule. */
  async function sendNow(ruleId: string, now = new Date()) {
    const rule = await ruleById(db, ruleId);
    if (!rule) return undefined;
    const period = periodSentOn(scheduleOf(rule), reportDay(now));
    const [id] = await planRuns(db, [
      {
        ruleId,
        periodStart: dayStart(period.start),
        periodEnd: dayStart(period.end),
        dueAt: now,
        manual: true,
      },
    ]);
    return id ? sendDue(now, id) : undefined;
  }

  return { tick, sendNow };
}

export type AutoReports = ReturnType<typeof createAutoReports>;
