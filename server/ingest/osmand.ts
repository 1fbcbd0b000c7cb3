/**
 * The OsmAnd HTTP protocol, as Traccar Client and many phone apps speak it: parameters in
 * the query or a form body (`id`/`deviceid`, `lat`, `lon`, `timestamp`, `speed` in knots,
 * `bearing`, `altitude`, `accuracy`, `batt`, `ignition`, `valid`, any other key as an
 * attribute), or the JSON body of Traccar Client 7+ (`device_id`, `location.coords…`). The
 * device gets 200 only after the fix is committed, or when it is filtered (0,0, an impossible
 * jump, `valid=false`: no GPS fix); a malformed request, or one with a value out of the
 * physical bounds (server/ingest/bounds.ts), gets 400 and an unknown device 404. While the
 * database is behind (INGEST_MAX_BACKLOG fixes waiting), a request gets 503 and Retry-After.
 *
 * The listener has explicit timeouts: the headers must arrive within `headersTimeoutMs`, the
 * whole request within `requestTimeoutMs`, and an idle kept-alive connection is closed after
 * `keepAliveTimeoutMs`, so slow or silent clients cannot hold connections open.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Fix } from '../db/positions';
import type { Logger } from '../log';
import { checkFix, checkIdentifier } from './bounds';
import { canonicalize, OSMAND_ALIASES } from './canonical';
import { BACKLOG_RETRY_SECONDS, BACKLOGGED, type Pipeline } from './pipeline';

const KNOTS_TO_KMH = 1.852;
const MAX_BODY = 64 * 1024;
const KNOWN = new Set([
  'id',
  'deviceid',
  'lat',
  'lon',
  'timestamp',
  'speed',
  'bearing',
  'heading',
  'altitude',
  'accuracy',
  'batt',
  'ignition',
  'driverUniqueId',
  'valid',
]);

export class BadMessage extends Error {}

function number(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** A reading that may be unknown: iOS and Traccar Client send -1 for 'not known'. */
function known(value: unknown): number | undefined {
  const n = number(value);
  return n === undefined || n < 0 ? undefined : n;
}

function bool(value: unknown): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return ['1', 'true', 'on', 'yes'].includes(String(value).toLowerCase());
}

/** Seconds, milliseconds or ISO text; missing means now. */
export function parseTime(value: unknown, now = new Date()): Date {
  if (value === undefined || value === null || value === '') return now;
  const n = Number(value);
  if (Number.isFinite(n)) return new Date(n > 1e11 ? n : n * 1000);
  const text = String(value).trim().replace(' ', 'T');
  // Without an offset the time is UTC, as Traccar reads it (not the server's zone).
  const zoned = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? `${text}Z` : text;
  const date = new Date(zoned);
  if (Number.isNaN(date.getTime())) throw new BadMessage('timestamp inválido');
  return date;
}

/** One fix from OsmAnd key/value parameters. */
export function fromParams(params: Record<string, string>): { identifier: string; fix: Fix } {
  const identifier = params.id ?? params.deviceid;
  if (!identifier) throw new BadMessage('id ausente');
  const latitude = number(params.lat);
  const longitude = number(params.lon);
  if (latitude === undefined || longitude === undefined)
    throw new BadMessage('lat/lon ausentes ou inválidos');
  const speedKnots = known(params.speed);
  const attributes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) if (!KNOWN.has(key)) attributes[key] = value;
  if (attributes.alarm === 'powerCut') attributes.powerCut = true;
  canonicalize(attributes, OSMAND_ALIASES);
  return {
    identifier,
    fix: {
      fixTime: parseTime(params.timestamp),
      latitude,
      longitude,
      speed: speedKnots === undefined ? undefined : speedKnots * KNOTS_TO_KMH,
      course: known(params.bearing ?? params.heading),
      altitude: number(params.altitude),
      accuracy: number(params.accuracy),
      battery: known(params.batt),
      ignition: bool(params.ignition),
      driverRfid: params.driverUniqueId,
      // Traccar reads 'true' or '1' as valid; a fix without the parameter is valid.
      valid: params.valid === undefined ? undefined : bool(params.valid),
      attributes,
    },
  };
}

interface TraccarJson {
  device_id?: unknown;
  location?: {
    timestamp?: unknown;
    coords?: {
      latitude?: unknown;
      longitude?: unknown;
      speed?: unknown;
      heading?: unknown;
      altitude?: unknown;
      accuracy?: unknown;
    };
    battery?: { level?: unknown };
    extras?: Record<string, unknown>;
  };
}

/** One fix from the JSON body (speed in m/s, battery level 0..1). */
export function fromJson(body: TraccarJson): { identifier: string; fix: Fix } {
  const identifier = typeof body.device_id === 'string' ? body.device_id : undefined;
  const coords = body.location?.coords;
  const latitude = number(coords?.latitude);
  const longitude = number(coords?.longitude);
  if (!identifier) throw new BadMessage('device_id ausente');
  if (latitude === undefined || longitude === undefined)
    throw new BadMessage('coordenadas ausentes');
  const speed = known(coords?.speed);
  const level = known(body.location?.battery?.level);
  return {
    identifier,
    fix: {
      fixTime: parseTime(body.location?.timestamp),
      latitude,
      longitude,
      speed: speed === undefined ? undefined : speed * 3.6,
      course: known(coords?.heading),
      altitude: number(coords?.altitude),
      accuracy: number(coords?.accuracy),
      battery: level === undefined ? undefined : level * 100,
      attributes: canonicalize({ ...(body.location?.extras ?? {}) }, OSMAND_ALIASES),
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new BadMessage('corpo grande demais'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function parseRequest(
  req: IncomingMessage,
): Promise<{ identifier: string; fix: Fix }> {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://device');
  } catch {
    // An absolute target that is no URL ('http://[x]/?id=1'): a bad message, not a failure.
    throw new BadMessage('endereço inválido');
  }
  const query = Object.fromEntries(url.searchParams);
  const body = req.method === 'POST' ? await readBody(req) : '';
  const type = req.headers['content-type'] ?? '';
  if (body && type.includes('json')) {
    try {
      return fromJson(JSON.parse(body) as TraccarJson);
    } catch (err) {
      throw err instanceof BadMessage ? err : new BadMessage('JSON malformado');
    }
  }
  const form = body ? Object.fromEntries(new URLSearchParams(body)) : {};
  return fromParams({ ...query, ...form });
}

/** The identifier and fix of a request, checked against the physical bounds. */
export async function checkedRequest(
  req: IncomingMessage,
  maxFutureSeconds: number,
): Promise<{ identifier: string; fix: Fix }> {
  const parsed = await parseRequest(req);
  const violation =
    checkIdentifier(parsed.identifier) ??
    checkFix(parsed.fix, { now: Date.now(), maxFutureSeconds });
  if (violation) throw new BadMessage(violation.message);
  return parsed;
}

export const TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 65_000 };

export function startOsmand(options: {
  port: number;
  host: string;
  pipeline: Pipeline;
  log: Logger;
  maxFutureSeconds?: number | undefined;
  headersTimeoutMs?: number | undefined;
  requestTimeoutMs?: number | undefined;
  keepAliveTimeoutMs?: number | undefined;
}): Promise<Server & { port: number }> {
  const headersTimeout = options.headersTimeoutMs ?? TIMEOUTS.headersMs;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? TIMEOUTS.requestMs, headersTimeout);
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? TIMEOUTS.keepAliveMs,
      // How often Node checks the two timeouts above (its default, 30 s, is too coarse).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, headersTimeout / 2)),
    },
    (req, res) => {
      if (options.pipeline.backlogged()) {
        // Not acknowledged: the device keeps the fix and sends it again later.
        res.statusCode = 503;
        res.setHeader('Retry-After', String(BACKLOG_RETRY_SECONDS));
        res.end(BACKLOGGED);
        return;
      }
      checkedRequest(req, options.maxFutureSeconds ?? 300)
        .then(({ identifier, fix }) => options.pipeline.accept(identifier, [fix], 'osmand'))
        .then((result) => {
          if (result.rejected.includes('invalid_value')) {
            res.statusCode = 400;
            res.end('Mensagem inválida: valor recusado pelo banco de dados');
            return;
          }
          res.statusCode = result.status === 'ok' ? 200 : 404;
          res.end(result.status === 'ok' ? 'OK' : 'Dispositivo desconhecido');
        })
        .catch((err: unknown) => {
          if (err instanceof BadMessage) {
            res.statusCode = 400;
            res.end(`Mensagem inválida: ${err.message}`);
            return;
          }
          options.log.error('osmand: failed to store', { err });
          res.statusCode = 500;
          res.end('Erro interno');
        });
    },
  );
  return new Promise((resolve) => {
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo;
      options.log.info('OsmAnd listening', { port });
      resolve(Object.assign(server, { port }));
    });
  });
}
