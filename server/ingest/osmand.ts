/**
 * The OsmAnd HTTP protocol, as Traccar Client and many phone apps speak it: parameters in
 * the query and a form body, both read (`id`/`deviceid`, `lat`, `lon` or `location=lat,lon`,
 * `timestamp`, `speed` in knots, `bearing`, `altitude`, `accuracy`, `batt`, `ignition`,
 * `valid`, `cell`, `wifi`, `mock`, any other key as an attribute), or the JSON body of
 * Traccar Client (`device_id`, `location.coords…`, `event`, `is_moving`, `odometer`,
 * `activity`, `mock`, `battery`). A request without coordinates (cell or wifi only, a
 * heartbeat) or with `valid=false` is a report without GPS: its readings are stored at the
 * last known place (server/ingest/pipeline.ts). A mock location is stored flagged
 * (`attributes.mock`) and raises no alert.
 *
 * The device proves its password (server/ingest/identity.ts) with `password` in the query or
 * form (kept by the phone apps on every report when typed in the server URL), or HTTP Basic;
 * it is never stored. A wrong or missing password, another protocol's tracker and an unknown
 * identifier are all answered 404 'Dispositivo desconhecido', so identifiers cannot be
 * enumerated. The device gets 200 only after its report is committed, or when it is filtered
 * (0,0, an impossible jump, a retransmission of a stored fix); a fix whose time another fix
 * already holds gets 409; a malformed request, or one with a value out of the physical bounds
 * (server/ingest/bounds.ts), 400. While the database is behind (INGEST_MAX_BACKLOG fixes
 * waiting) or away, a request gets 503 and Retry-After: nothing is acknowledged that was not
 * stored, and the device sends it again.
 *
 * The listener has explicit timeouts: the headers must arrive within `headersTimeoutMs`, the
 * whole request within `requestTimeoutMs`, and an idle kept-alive connection is closed after
 * `keepAliveTimeoutMs`, so slow or silent clients cannot hold connections open.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../platform/log';
import { checkFix, checkIdentifier } from './bounds';
import { canonicalize, OSMAND_ALIASES } from './canonical';
import type { AcceptResult } from './message';
import { BACKLOG_RETRY_SECONDS, BACKLOGGED, type Pipeline } from './pipeline';
import type { Fix } from './queries/positions';

const KNOTS_TO_KMH = 1.852;
const MAX_BODY = 64 * 1024;
const KNOWN = new Set([
  'id',
  'deviceid',
  'password',
  'lat',
  'lon',
  'location',
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
  'mock',
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

/** An OsmAnd request: the device it names, its report, and the password it gave. */
export interface OsmandReport {
  identifier: string;
  fix: Fix;
  password?: string | undefined;
}

/** `lat` and `lon`, or `location=lat,lon`; undefined when the request has no coordinates. */
function coordinates(params: Record<string, string>) {
  let lat = params.lat;
  let lon = params.lon;
  if (lat === undefined && lon === undefined && params.location !== undefined)
    [lat, lon] = params.location.split(',');
  if ((lat === undefined || lat === '') && (lon === undefined || lon === '')) return undefined;
  const latitude = number(lat);
  const longitude = number(lon);
  if (latitude === undefined || longitude === undefined)
    throw new BadMessage('lat/lon ausentes ou inválidos');
  return { latitude, longitude };
}

/** One report from OsmAnd key/value parameters. */
export function fromParams(params: Record<string, string>): OsmandReport {
  const identifier = params.id ?? params.deviceid;
  if (!identifier) throw new BadMessage('id ausente');
  // No coordinates (cell or wifi only, a heartbeat): a report without GPS.
  const place = coordinates(params);
  const speedKnots = known(params.speed);
  const attributes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) if (!KNOWN.has(key)) attributes[key] = value;
  if (attributes.alarm === 'powerCut') attributes.powerCut = true;
  if (bool(params.mock)) attributes.mock = true;
  canonicalize(attributes, OSMAND_ALIASES);
  // Traccar reads 'true' or '1' as valid; a fix without the parameter is valid.
  const valid = place && (params.valid === undefined || bool(params.valid));
  return {
    identifier,
    password: params.password,
    fix: {
      fixTime: parseTime(params.timestamp),
      latitude: place?.latitude ?? Number.NaN,
      longitude: place?.longitude ?? Number.NaN,
      speed: speedKnots === undefined ? undefined : speedKnots * KNOTS_TO_KMH,
      course: known(params.bearing ?? params.heading),
      altitude: number(params.altitude),
      accuracy: number(params.accuracy),
      battery: known(params.batt),
      ignition: bool(params.ignition),
      driverRfid: params.driverUniqueId,
      valid: valid ? undefined : false,
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
    battery?: { level?: unknown; is_charging?: unknown };
    event?: unknown;
    is_moving?: unknown;
    odometer?: unknown;
    activity?: { type?: unknown };
    mock?: unknown;
    alarm?: unknown;
    extras?: Record<string, unknown>;
  };
}

/** The Traccar Client fields kept as attributes, under the names Traccar gives them. */
function jsonAttributes(location: NonNullable<TraccarJson['location']>) {
  const attributes: Record<string, unknown> = { ...(location.extras ?? {}) };
  if (typeof location.event === 'string') attributes.event = location.event;
  if (typeof location.is_moving === 'boolean') attributes.motion = location.is_moving;
  // The app's own odometer (metres), beside the one Rastro computes from the fixes.
  const odometer = number(location.odometer);
  if (odometer !== undefined) attributes.odometer = odometer;
  if (typeof location.activity?.type === 'string') attributes.activity = location.activity.type;
  if (location.mock === true) attributes.mock = true;
  if (location.battery?.is_charging === true) attributes.charge = true;
  if (typeof location.alarm === 'string') attributes.alarm = location.alarm;
  return canonicalize(attributes, OSMAND_ALIASES);
}

/** One report from the JSON body (speed in m/s, battery level 0..1). */
export function fromJson(body: TraccarJson): OsmandReport {
  const identifier = typeof body.device_id === 'string' ? body.device_id : undefined;
  if (!identifier) throw new BadMessage('device_id ausente');
  const location = body.location ?? {};
  const coords = location.coords;
  const latitude = number(coords?.latitude);
  const longitude = number(coords?.longitude);
  // No coordinates at all: a report without GPS; only one of them: malformed.
  if ((latitude === undefined) !== (longitude === undefined))
    throw new BadMessage('coordenadas ausentes');
  const speed = known(coords?.speed);
  const level = known(location.battery?.level);
  return {
    identifier,
    fix: {
      fixTime: parseTime(location.timestamp),
      latitude: latitude ?? Number.NaN,
      longitude: longitude ?? Number.NaN,
      speed: speed === undefined ? undefined : speed * 3.6,
      course: known(coords?.heading),
      altitude: number(coords?.altitude),
      accuracy: number(coords?.accuracy),
      battery: level === undefined ? undefined : level * 100,
      valid: latitude === undefined ? false : undefined,
      attributes: jsonAttributes(location),
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

/** The password of an `Authorization: Basic` header (the user name is not checked). */
export function basicPassword(header: string | undefined): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

export async function parseRequest(req: IncomingMessage): Promise<OsmandReport> {
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
  const basic = basicPassword(req.headers.authorization);
  if (body && type.includes('json')) {
    let report: OsmandReport;
    try {
      report = fromJson(JSON.parse(body) as TraccarJson);
    } catch (err) {
      throw err instanceof BadMessage ? err : new BadMessage('JSON malformado');
    }
    // The password typed in the app's server URL travels in its query.
    return { ...report, password: query.password ?? basic };
  }
  // The query and the form together: an app keeps the server URL's query (its password)
  // and sends its fields in the body.
  const form = body ? Object.fromEntries(new URLSearchParams(body)) : {};
  const report = fromParams({ ...query, ...form });
  return { ...report, password: report.password ?? basic };
}

/** The report of a request, checked against the physical bounds. */
export async function checkedRequest(
  req: IncomingMessage,
  maxFutureSeconds: number,
): Promise<OsmandReport> {
  const parsed = await parseRequest(req);
  const violation =
    checkIdentifier(parsed.identifier) ??
    checkFix(parsed.fix, { now: Date.now(), maxFutureSeconds });
  if (violation) throw new BadMessage(violation.message);
  return parsed;
}

export const TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 65_000 };

export const UNKNOWN_DEVICE = 'Dispositivo desconhecido';
export const CONFLICT = 'Conflito: outra posição do rastreador já ocupa este horário';
export const UNAVAILABLE = 'Serviço temporariamente indisponível. Tente novamente em instantes.';

/** The HTTP answer to what became of a report. */
export function answerOf(result: AcceptResult): [number, string] {
  if (result.status !== 'ok') return [404, UNKNOWN_DEVICE];
  if (result.rejected.includes('invalid_value'))
    return [400, 'Mensagem inválida: valor recusado pelo banco de dados'];
  if (result.rejected.includes('future_fix')) return [400, 'Mensagem inválida: horário no futuro'];
  if (result.rejected.includes('conflict')) return [409, CONFLICT];
  return [200, 'OK'];
}

export function startOsmand(options: {
  port: number;
  host: string;
  pipeline: Pipeline;
  log: Logger;
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
      // Stopping: this answer is the connection's last. A device that sends without pause
      // never leaves its kept-alive connection idle, and would hold the stop until its
      // deadline; told to close, it reconnects, to whichever process listens then.
      if (!server.listening) res.setHeader('Connection', 'close');
      if (options.pipeline.backlogged()) {
        // Not acknowledged: the device keeps the fix and sends it again later.
        res.statusCode = 503;
        res.setHeader('Retry-After', String(BACKLOG_RETRY_SECONDS));
        res.end(BACKLOGGED);
        return;
      }
      // The future is the pipeline's to refuse (with the tracker's page told why).
      checkedRequest(req, Number.POSITIVE_INFINITY)
        .then(({ identifier, fix, password }) =>
          options.pipeline.accept(identifier, [fix], {
            protocol: 'osmand',
            address: req.socket.remoteAddress,
            credential: { kind: 'password', password },
          }),
        )
        .then((result) => {
          const [status, text] = answerOf(result);
          res.statusCode = status;
          res.end(text);
        })
        .catch((err: unknown) => {
          if (err instanceof BadMessage) {
            res.statusCode = 400;
            res.end(`Mensagem inválida: ${err.message}`);
            return;
          }
          // Not stored (the database away or failing): the device keeps it and sends it again.
          options.log.error('osmand: failed to store', { err });
          res.statusCode = 503;
          res.setHeader('Retry-After', String(BACKLOG_RETRY_SECONDS));
          res.end(UNAVAILABLE);
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
