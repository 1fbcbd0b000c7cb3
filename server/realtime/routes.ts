/**
 * SPEC §7 `registros/real-time/lastLocation`, and the live stream of changed last locations
 * (server-sent events).
 *
 * Every change of a last location has a number (`eventId`, from a database sequence): unique
 * and increasing, it is the SSE event id. A client resumes after the greatest id it applied
 * (`Last-Event-ID`, as EventSource sends it), so a reconnect in the middle of a batch of
 * changes brings the rest of it; `since` (an ISO time of reception) is kept for integrators.
 * Then every change within moments of ingest. At every heartbeat the stream checks that the
 * token is still valid and the user and session still allowed, and closes otherwise; and it
 * computes again what the caller may see, so that a vehicle unlinked from a Terceiro, or moved
 * out of the caller's companies, stops streaming within one heartbeat.
 *
 * Ids follow commit order, with one process or several (server/ingest/queries/positions.ts), and
 * each stream sends "every change after the last id it sent" in id order: its ids only grow, and a
 * resume from the last one misses nothing. Which changes to read is known from the live feed
 * (server/realtime/feed.ts): this process's ingest, or any process's through PostgreSQL
 * LISTEN/NOTIFY.
 *
 * While the database is away (a restart, a failover) a stream stays open on its heartbeats;
 * when it is back, the session is checked first, then every change after the stream's last
 * id is sent. When the server stops, its streams end, and browsers resume elsewhere.
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { describeRoute, resolver } from 'hono-openapi';
import * as v from 'valibot';
import {
  type Alert,
  compactLocations,
  IsoTimestampSchema,
  LastLocationFormatSchema,
  LastLocationQuerySchema,
  LocationItemSchema,
} from '../../src/contract';
import * as o from '../../src/contract/objects';
import {
  type AuthEnv,
  requireAuth,
  requirePermission,
  sessionProblem,
} from '../accounts/auth/middleware';
import { wireAlert } from '../alerts/notifier';
import type { Deps } from '../deps';
import { currentSeq, type TrackerRef } from '../ingest/queries/positions';
import { badRequest, HttpError } from '../platform/http/errors';
import { validate } from '../platform/http/validate';
import { locationItems, locationScope } from './items';

const StreamQuerySchema = o.strictObject({
  ...LastLocationQuerySchema.entries,
  since: v.optional(IsoTimestampSchema),
  /**
   * Which events: 'all' (default: `location` and `alert`), 'locations' or 'alerts' (the PWA's
   * app-wide alert listener, on every page).
   */
  events: v.optional(
    v.picklist(['all', 'locations', 'alerts'], 'Use all, locations ou alerts'),
    'all',
  ),
});
/**
 * An event id. One beyond this database's newest (however long: past 15 digits a number keeps
 * only its first ones) was not given by it, and the stream starts again from the beginning.
 */
const EVENT_ID = /^\d{1,40}$/;
/** `format=compact`: the same items in the compact form the PWA reads (compact-locations.ts). */
const LastLocationRequestSchema = o.strictObject({
  ...LastLocationQuerySchema.entries,
  format: LastLocationFormatSchema,
});

/** Where a stream resumes: after an event id, from a time of reception on, or nowhere. */
function resumePoint(since: string | undefined, lastEventId: string | undefined) {
  if (lastEventId !== undefined && lastEventId !== '') {
    if (!EVENT_ID.test(lastEventId))
      throw badRequest('Last-Event-ID inválido: use o id de um evento recebido');
    return { afterSeq: Number(lastEventId) };
  }
  if (since) return { receivedFrom: new Date(since) };
  return undefined;
}

/** Location events joined into one write of the live stream. */
const EVENTS_PER_WRITE = 500;
/** Alerts waiting to be written to one stream, at most (the oldest are dropped). */
export const MAX_WAITING_ALERTS = 1000;
/** After a failed read, the first pause before the stream looks at the database again. */
const DATABASE_RETRY_MS = 250;

export function realtimeRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('view_map'));

  app.get(
    '/lastLocation',
    describeRoute({
      tags: ['Tempo real'],
      summary: 'Última posição de cada veículo ou rastreador visível',
      description:
        'Com format=compact, os mesmos itens na forma compacta (CompactLocations), lida pelo PWA.',
      responses: {
        200: {
          description: 'Posições',
          content: { 'application/json': { schema: resolver(v.array(LocationItemSchema)) } },
        },
      },
    }),
    validate('query', LastLocationRequestSchema),
    async (c) => {
      const query = c.req.valid('query');
      const items = await locationItems(deps, await locationScope(c, deps, query));
      return c.json(query.format === 'compact' ? compactLocations(items) : items);
    },
  );

  app.get(
    '/stream',
    describeRoute({
      tags: ['Tempo real'],
      summary:
        'Fluxo (SSE) das últimas posições que mudaram; retoma do Last-Event-ID (ou de since)',
    }),
    validate('query', StreamQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const resume = resumePoint(q.since, c.req.header('last-event-id'));
      let scope = await locationScope(c, deps, q);
      const claims = c.var.claims;
      const locations = q.events !== 'alerts';
      return streamSSE(c, async (stream) => {
        const alerts: Alert[] = [];
        let wake: (() => void) | undefined;
        // Alerts travel as `alert` events, scoped like locations (a Terceiro: linked vehicles).
        const stopAlerts =
          q.events === 'locations'
            ? () => {}
            : deps.alerts.bus.subscribe((raised) => {
                for (const alert of raised) {
                  if (!scope.clientIds.includes(alert.clientId)) continue;
                  // Limited to some vehicles (a Terceiro, or a stream that asked for some):
                  // nothing about a driver (vehicleId null), as in the history.
                  if (
                    scope.vehicleIds &&
                    (alert.vehicleId === null || !scope.vehicleIds.includes(alert.vehicleId))
                  )
                    continue;
                  alerts.push(wireAlert(alert));
                }
                // A client that does not read holds its writes: what waits for it is bounded
                // (live delivery is best-effort; every alert is in the history).
                if (alerts.length > MAX_WAITING_ALERTS)
                  alerts.splice(0, alerts.length - MAX_WAITING_ALERTS);
                wake?.();
              });
        // Something this stream may see changed: read every change after the last id sent.
        let changed = false;
        const visible = (tracker: TrackerRef) =>
          scope.clientIds.includes(tracker.clientId) &&
          (!scope.vehicleIds ||
            (tracker.vehicleId !== null && scope.vehicleIds.includes(tracker.vehicleId)));
        const stopLocations = locations
          ? deps.live.onLocations((trackers) => {
              if (!trackers.some(visible)) return;
              changed = true;
              wake?.();
            })
          : () => {};
        const stops = [stopLocations, stopAlerts];
        const stop = () => {
          for (const one of stops.splice(0)) one();
        };
        stream.onAbort(() => {
          stop();
          wake?.();
        });
        try {
          // The greatest event id sent (or the current one at the start): the next read starts
          // after it, so the stream's ids only grow and a resume from the last one loses nothing.
          const current = await currentSeq(deps.database.db);
          // An id beyond the newest was not given by this database (a new one, its numbering
          // started again): resumed from it, the stream would wait for ids it has long passed
          // and the map would freeze. Every last location is sent again instead.
          if (resume?.afterSeq !== undefined && resume.afterSeq > current) resume.afterSeq = 0;
          let cursor = resume?.afterSeq ?? current;
          // Written a few hundred events at a time, in the text writeSSE would write for each
          // (a location's JSON has no line break): a round of 10,000 changes is tens of writes,
          // not 10,000.
          const send = async (items: Awaited<ReturnType<typeof locationItems>>) => {
            for (let start = 0; start < items.length; start += EVENTS_PER_WRITE) {
              let text = '';
              for (const item of items.slice(start, start + EVENTS_PER_WRITE)) {
                text += `event: location\ndata: ${JSON.stringify(item)}\nid: ${item.eventId}\n\n`;
                cursor = Math.max(cursor, Number(item.eventId));
              }
              await stream.write(text);
            }
          };
          if (resume && locations) await send(await locationItems(deps, scope, resume));
          await stream.writeSSE({ event: 'ready', data: new Date().toISOString() });
          const { health } = deps.database;
          const heartbeat = deps.config.streamHeartbeatMs;
          /** Waits until `ms` passed or something happened (a change, an alert, the end). */
          const rest = async (ms: number, untilDatabaseUp = false) => {
            let timer: ReturnType<typeof setTimeout> | undefined;
            const back = new AbortController();
            await Promise.race([
              new Promise<void>((resolve) => {
                wake = resolve;
                timer = setTimeout(resolve, Math.max(0, ms));
              }),
              ...(untilDatabaseUp ? [health.whenUp(back.signal)] : []),
            ]);
            clearTimeout(timer);
            back.abort();
            wake = undefined;
          };
          /**
           * After the database failed under the stream (a restart, a failover): the stream
           * stays open on heartbeats, and carries on from its last id when the database is back.
           */
          const awayFromDatabase = async () => {
            await rest(Math.min(heartbeat, DATABASE_RETRY_MS));
            if (!health.up() && !ending()) await rest(heartbeat, true);
          };
          const ending = () => stream.aborted || deps.lifecycle.signal.aborted;
          const stopOnEnd = () => wake?.();
          deps.lifecycle.signal.addEventListener('abort', stopOnEnd);
          stops.push(() => deps.lifecycle.signal.removeEventListener('abort', stopOnEnd));
          /** What the caller may see now (links, companies); why not, when nothing. */
          const rescope = async () => {
            try {
              scope = await locationScope(c, deps, q);
              return undefined;
            } catch (err) {
              if (!(err instanceof HttpError)) throw err;
              // What the stream was opened for (a customer) is no longer visible.
              return { reason: err.code, message: err.message };
            }
          };
          let checkedAt = Date.now();
          /** The session could not be checked: it is, before anything more is sent. */
          let unchecked = false;
          while (!ending()) {
            if (unchecked || Date.now() - checkedAt >= heartbeat) {
              checkedAt = Date.now();
              let problem: Awaited<ReturnType<typeof sessionProblem>>;
              try {
                problem = (await sessionProblem(deps, claims)) ?? (await rescope());
              } catch (err) {
                if (!health.report(err)) throw err;
                unchecked = true;
                await stream.write(': ping\n\n');
                await awayFromDatabase();
                continue;
              }
              unchecked = false;
              if (problem) {
                await stream.writeSSE({ event: 'end', data: JSON.stringify(problem) });
                break;
              }
              if (!changed && alerts.length === 0) await stream.write(': ping\n\n');
            }
            // No id: an alert event leaves the stream's Last-Event-ID (locations) as it was.
            for (let alert = alerts.shift(); alert; alert = alerts.shift())
              await stream.writeSSE({ event: 'alert', data: JSON.stringify(alert) });
            if (!changed) {
              await rest(checkedAt + heartbeat - Date.now());
              continue;
            }
            changed = false;
            try {
              await send(await locationItems(deps, scope, { afterSeq: cursor }));
            } catch (err) {
              if (!health.report(err)) throw err;
              // Read again from the same id when the database is back: nothing is skipped.
              changed = true;
              await awayFromDatabase();
            }
          }
        } catch (err) {
          // The connection closes and the browser opens it again from its Last-Event-ID:
          // the failure is logged, not told to the page.
          deps.log.error('realtime: stream failed', { err });
        } finally {
          stop();
        }
      });
    },
  );
  return app;
}
