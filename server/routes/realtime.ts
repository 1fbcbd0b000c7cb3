/**
 * SPEC §7 `registros/real-time/lastLocation`, and the live stream of changed last locations
 * (server-sent events). The stream first sends what changed after `since` (or the
 * `Last-Event-ID` the browser resends on reconnect), then every change within a second of
 * ingest, so a client that reconnects misses nothing.
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { describeRoute, resolver } from 'hono-openapi';
import * as v from 'valibot';
import { LastLocationQuerySchema, LocationItemSchema } from '../../src/contract';
import { type AuthEnv, requireAuth, requirePermission } from '../auth/middleware';
import type { Deps } from '../deps';
import { validate } from '../http/validate';
import { locationItems, locationScope } from '../realtime/items';

const StreamQuerySchema = v.strictObject({
  ...LastLocationQuerySchema.entries,
  since: v.optional(v.pipe(v.string(), v.isoTimestamp('Data inválida: use ISO 8601'))),
});
const HEARTBEAT_MS = 15_000;

export function realtimeRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('view_map'));

  app.get(
    '/lastLocation',
    describeRoute({
      tags: ['Tempo real'],
      summary: 'Última posição de cada veículo ou rastreador visível',
      responses: {
        200: {
          description: 'Posições',
          content: { 'application/json': { schema: resolver(v.array(LocationItemSchema)) } },
        },
      },
    }),
    validate('query', LastLocationQuerySchema),
    async (c) =>
      c.json(await locationItems(deps, await locationScope(c, deps, c.req.valid('query')))),
  );

  app.get(
    '/stream',
    describeRoute({
      tags: ['Tempo real'],
      summary: 'Fluxo (SSE) das últimas posições que mudaram; retoma de since/Last-Event-ID',
    }),
    validate('query', StreamQuerySchema),
    async (c) => {
      const q = c.req.valid('query');
      const scope = await locationScope(c, deps, q);
      const resumeFrom = q.since ?? c.req.header('last-event-id');
      const since =
        resumeFrom && !Number.isNaN(Date.parse(resumeFrom)) ? new Date(resumeFrom) : undefined;
      return streamSSE(c, async (stream) => {
        const pending = new Set<string>();
        let wake: (() => void) | undefined;
        const stop = deps.pipeline.onStored((tracker) => {
          if (!scope.clientIds.includes(tracker.clientId)) return;
          if (
            scope.vehicleIds &&
            !(tracker.vehicleId && scope.vehicleIds.includes(tracker.vehicleId))
          )
            return;
          pending.add(tracker.id);
          wake?.();
        });
        stream.onAbort(stop);
        const send = async (items: Awaited<ReturnType<typeof locationItems>>) => {
          for (const item of items)
            await stream.writeSSE({
              event: 'location',
              id: item.receivedAt,
              data: JSON.stringify(item),
            });
        };
        if (since) await send(await locationItems(deps, scope, { receivedAfter: since }));
        await stream.writeSSE({ event: 'ready', data: new Date().toISOString() });
        while (!stream.aborted) {
          if (pending.size === 0) {
            await new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, HEARTBEAT_MS);
            });
            wake = undefined;
            if (pending.size === 0 && !stream.aborted) await stream.write(': ping\n\n');
            continue;
          }
          const trackerIds = [...pending];
          pending.clear();
          await send(await locationItems(deps, scope, { trackerIds }));
        }
        stop();
      });
    },
  );
  return app;
}
