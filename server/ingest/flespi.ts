/**
 * The flespi HTTP stream: flespi POSTs a JSON array of its messages (flat objects with
 * dotted keys: `ident`, `timestamp`, `position.latitude`, `position.longitude`,
 * `position.speed`, `position.direction`, `position.altitude`, `position.satellites`,
 * `position.valid`, `engine.ignition.status`, `external.powersource.voltage`,
 * `battery.voltage`, `battery.level`, `ibutton.code`, `din`, …) to
 * `POST /tech-integracao/v1/flespi/stream`, authenticated by the shared secret configured in
 * FLESPI_STREAM_SECRET and sent as `Authorization: Bearer <secret>`.
 *
 * A message without a valid position (`position.valid=false`, or no position at all) is a
 * report without GPS: its telemetry is stored at the tracker's last known place
 * (server/ingest/pipeline.ts). The stream's secret proves every device in it; a tracker bound
 * to another protocol is refused and counted as unknown.
 *
 * The answer comes after every fix of the batch is committed. flespi resends a batch that
 * was not answered 2xx, so a batch that was read is answered 200 with what became of it
 * (unknown devices and conflicts are counted, not retried forever);
 * a body that is not a JSON array of messages is answered 400. A message with a value out of
 * the physical bounds (server/ingest/bounds.ts) is skipped and counted: the good messages of
 * the same batch are stored all the same.
 */
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { Deps } from '../deps';
import { clientAddress } from '../platform/http/client-address';
import { badRequest, HttpError, unauthorized } from '../platform/http/errors';
import { bearerMatches } from '../platform/http/secrets';
import { UNSUPPORTED_TYPE } from '../platform/http/validate';
import { checkFix, checkIdentifier } from './bounds';
import { canonicalize, FLESPI_ALIASES } from './canonical';
import { BACKLOG_RETRY_SECONDS, BACKLOGGED } from './pipeline';
import type { Fix } from './queries/positions';

type Message = Record<string, unknown>;

const num = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Keys that become fix fields; every other key is kept as an attribute. */
const MAPPED = new Set([
  'ident',
  'timestamp',
  'position.latitude',
  'position.longitude',
  'position.speed',
  'position.direction',
  'position.altitude',
  'position.valid',
  'engine.ignition.status',
  'battery.level',
  'ibutton.code',
]);

type Skip = 'no_ident' | 'no_position' | 'out_of_range' | 'unreadable';

/** One fix of a flespi message, checked against the physical bounds, or why there is none. */
export function fromFlespi(
  message: Message,
  rules: { now: number; maxFutureSeconds: number } = { now: Date.now(), maxFutureSeconds: 300 },
): { identifier: string; fix: Fix } | { skip: Skip; reason?: string } {
  const parsed = parseFlespi(message);
  if ('skip' in parsed) return parsed;
  const violation = checkIdentifier(parsed.identifier) ?? checkFix(parsed.fix, rules);
  return violation ? { skip: 'out_of_range', reason: violation.message } : parsed;
}

function parseFlespi(message: Message): { identifier: string; fix: Fix } | { skip: Skip } {
  const identifier = message.ident;
  if (typeof identifier !== 'string' && typeof identifier !== 'number') return { skip: 'no_ident' };
  const latitude = num(message['position.latitude']);
  const longitude = num(message['position.longitude']);
  const timestamp = num(message.timestamp);
  if (timestamp === undefined) return { skip: 'no_position' };
  // Without a valid position: its telemetry only (see the file's comment).
  const placed =
    latitude !== undefined && longitude !== undefined && message['position.valid'] !== false;
  const attributes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) if (!MAPPED.has(key)) attributes[key] = value;
  const ignition = message['engine.ignition.status'];
  const ibutton = message['ibutton.code'];
  const din = num(message.din);
  if (din !== undefined) attributes.din1 = (din & 1) === 1;
  const powerStatus = message['external.powersource.status'];
  if (typeof powerStatus === 'boolean') attributes.powerCut = !powerStatus;
  canonicalize(attributes, FLESPI_ALIASES);
  return {
    identifier: String(identifier),
    fix: {
      fixTime: new Date(Math.round(timestamp * 1000)),
      latitude: placed ? latitude : Number.NaN,
      longitude: placed ? longitude : Number.NaN,
      valid: placed ? undefined : false,
      speed: num(message['position.speed']),
      course: num(message['position.direction']),
      altitude: num(message['position.altitude']),
      ignition: typeof ignition === 'boolean' ? ignition : undefined,
      battery: num(message['battery.level']),
      driverRfid:
        typeof ibutton === 'string' || typeof ibutton === 'number'
          ? String(ibutton).toUpperCase()
          : undefined,
      attributes,
    },
  };
}

export function flespiStreamRoutes(deps: Deps) {
  const app = new Hono();
  app.post(
    '/stream',
    describeRoute({
      tags: ['Ingestão'],
      summary: 'Fluxo HTTP do flespi: lote de mensagens (segredo compartilhado no Authorization)',
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'array', items: { type: 'object', additionalProperties: true } },
          },
        },
      },
    }),
    async (c) => {
      const secret = deps.config.flespiStreamSecret;
      if (!secret)
        throw new HttpError(
          503,
          'SERVER_ERROR',
          'Fluxo flespi não configurado: defina FLESPI_STREAM_SECRET',
        );
      if (!bearerMatches(c.req.header('authorization'), secret))
        throw unauthorized('Segredo do fluxo flespi inválido');
      // The database is behind: flespi keeps the batch and sends it again.
      if (deps.pipeline.backlogged())
        throw new HttpError(503, 'SERVER_ERROR', BACKLOGGED, {
          headers: { 'Retry-After': String(BACKLOG_RETRY_SECONDS) },
        });
      const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim() ?? '';
      if (!/^application\/([\w.-]+\+)?json$/i.test(type))
        throw new HttpError(415, 'BAD_REQUEST', UNSUPPORTED_TYPE);
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw badRequest('Corpo da requisição inválido: JSON malformado');
      }
      const messages = Array.isArray(body) ? body : [body];
      if (messages.some((m) => typeof m !== 'object' || m === null || Array.isArray(m)))
        throw badRequest('Corpo inválido: envie uma lista de mensagens do flespi');

      const byDevice = new Map<string, Fix[]>();
      let skipped = 0;
      const rules = { now: Date.now(), maxFutureSeconds: deps.config.ingest.maxFutureSeconds };
      for (const message of messages as Message[]) {
        let parsed: ReturnType<typeof fromFlespi>;
        try {
          parsed = fromFlespi(message, rules);
        } catch (err) {
          // One message no parser foresaw costs itself, not the batch (resent for ever).
          parsed = { skip: 'unreadable', reason: String(err) };
        }
        if ('skip' in parsed) {
          skipped += 1;
          if (parsed.skip === 'unreadable')
            deps.log.warn('flespi: unreadable message skipped', {
              ident: message.ident,
              reason: parsed.reason,
            });
          else if (parsed.reason)
            deps.log.debug('flespi: message skipped', {
              ident: message.ident,
              reason: parsed.reason,
            });
          continue;
        }
        const fixes = byDevice.get(parsed.identifier) ?? [];
        fixes.push(parsed.fix);
        byDevice.set(parsed.identifier, fixes);
      }
      // Every device's fixes join the same group commit; answered after it.
      const address = clientAddress(c, deps.config.trustProxy);
      const results = await Promise.all(
        [...byDevice].map(([identifier, fixes]) =>
          deps.pipeline.accept(identifier, fixes, {
            protocol: 'flespi',
            address,
            credential: { kind: 'stream' },
          }),
        ),
      );
      return c.json({
        received: messages.length,
        stored: results.reduce((sum, r) => sum + r.stored, 0),
        unknownDevices: results.filter((r) => r.status === 'unknown_device').length,
        skipped,
        rejected: results.reduce((sum, r) => sum + (r.status === 'ok' ? r.rejected.length : 0), 0),
        conflicts: results.reduce(
          (sum, r) => sum + r.rejected.filter((x) => x === 'conflict').length,
          0,
        ),
        withoutGps: results.reduce((sum, r) => sum + (r.telemetry ?? 0), 0),
      });
    },
  );
  return app;
}
