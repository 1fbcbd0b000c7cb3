/**
 * Configuration comes only from the environment, validated once at start. Every value has a
 * default that runs the embedded demo; production sets DATABASE_URL, JWT_SECRET, PUBLIC_URL
 * and SMTP_URL. An invalid value stops the server with a pt-BR message naming the variable.
 */
import path from 'node:path';
import * as v from 'valibot';
import { flattenIssues } from '../../src/contract';
import * as o from '../../src/contract/objects';
import { FIREBASE_PAGE_HOSTS, type PushConfig, PushConfigError, pushConfig } from '../push/config';
import { tileSource } from './http/security';

const int = (fallback: number, min = 0) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.transform(Number),
    v.number(),
    v.integer(),
    v.minValue(min),
  );

const bool = (fallback: boolean) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.transform((value) => ['1', 'true', 'yes', 'on', 'sim'].includes(value.toLowerCase())),
  );

/** A listener's port: 0–65535 (0 picks a free one) or 'off'. */
const listenerPort = (fallback: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.check(
      (value) => value === 'off' || (/^\d+$/.test(value) && Number(value) <= 65_535),
      'use uma porta de 0 a 65535 ou off',
    ),
    v.transform((value) => (value === 'off' ? null : Number(value))),
  );

/** `false`, `true` (one proxy in front) or how many proxies in front (1–10). */
const proxyHops = v.pipe(
  v.optional(v.string(), 'false'),
  v.transform((value) => value.trim().toLowerCase()),
  v.check(
    (value) =>
      ['1', 'true', 'yes', 'on', 'sim', '0', 'false', 'no', 'off', 'não', 'nao'].includes(value) ||
      /^([1-9]|10)$/.test(value),
    'use true, false ou o número de proxies à frente (1 a 10)',
  ),
  v.transform((value) => {
    if (['true', 'yes', 'on', 'sim'].includes(value)) return 1;
    if (/^\d+$/.test(value)) return Number(value);
    return 0;
  }),
);

const list = v.pipe(
  v.optional(v.string(), ''),
  v.transform((value) => value.split(/[\s,]+/).filter(Boolean)),
);

/**
 * A page cache size as PostgreSQL writes it (kB, MB or GB), from its minimum (128kB) to 1GB:
 * PGlite's WebAssembly memory holds the cache beside everything else, and a larger one would
 * fail at start instead of here.
 */
const KILOBYTES: Record<string, number> = { kB: 1, MB: 1024, GB: 1024 * 1024 };
function isPageCacheSize(value: string): boolean {
  const [, amount, unit] = /^([1-9]\d{0,6})(kB|MB|GB)$/.exec(value) ?? [];
  const kilobytes = Number(amount) * (KILOBYTES[unit ?? ''] ?? 0);
  return kilobytes >= 128 && kilobytes <= 1024 * 1024;
}

const optionalText = v.pipe(
  v.optional(v.string()),
  v.transform((value) => (value && value.trim() !== '' ? value.trim() : undefined)),
);

const EnvSchema = o.object({
  PORT: int(3000, 0),
  HOST: v.optional(v.string(), '0.0.0.0'),
  DATA_DIR: v.optional(v.string(), './data'),
  DATA_SNAPSHOT: optionalText,
  STATIC_DIR: v.optional(v.string(), './dist'),
  DATABASE_URL: v.pipe(
    optionalText,
    v.check(
      (value) => value === undefined || /^postgres(ql)?:\/\//.test(value),
      'deve começar com postgres://',
    ),
  ),
  /** The longest pause between two attempts to reach a database that went away. */
  DATABASE_RETRY_MAX_MS: int(2000, 10),
  DATABASE_CONNECT_TIMEOUT_MS: int(5000, 100),
  /**
   * The embedded database's page cache (PostgreSQL's shared_buffers, 128MB when unset). Every
   * start of PGlite sets all of it up: a small machine, or a test suite that starts dozens of
   * databases, gives it less.
   */
  PGLITE_SHARED_BUFFERS: v.pipe(
    optionalText,
    v.check(
      (value) => value === undefined || isPageCacheSize(value),
      'deve ser um tamanho de memória do PostgreSQL de 128kB a 1GB, como 128MB',
    ),
  ),
  SHUTDOWN_TIMEOUT_SECONDS: int(10, 1),
  PUBLIC_URL: optionalText,
  JWT_SECRET: v.pipe(
    optionalText,
    v.check((value) => value === undefined || value.length >= 32, 'deve ter 32 caracteres ou mais'),
  ),
  ACCESS_TOKEN_TTL: int(900, 10),
  REFRESH_TOKEN_TTL: int(30 * 24 * 3600, 60),
  SET_PASSWORD_TOKEN_TTL: int(72 * 3600, 60),
  SMTP_URL: optionalText,
  MAIL_FROM: v.optional(v.string(), 'Rastro <nao-responda@rastro.local>'),
  CEP_URL: v.optional(v.pipe(v.string(), v.url('deve ser uma URL')), 'https://viacep.com.br/ws'),
  OUTSIDE_TIMEOUT_MS: int(5000, 100),
  PLATE_LOOKUP_URL: optionalText,
  PLATE_LOOKUP_TOKEN: optionalText,
  GETRAK_URL: optionalText,
  GETRAK_TOKEN: optionalText,
  TRACKCONNECT_URL: optionalText,
  TRACKCONNECT_TOKEN: optionalText,
  FLESPI_URL: optionalText,
  FLESPI_TOKEN: optionalText,
  WIALON_URL: optionalText,
  WIALON_TOKEN: optionalText,
  UPLOAD_DIR: optionalText,
  OSMAND_PORT: listenerPort(5055),
  WIALON_IPS_PORT: listenerPort(5039),
  // The makers' protocols, each on its own port (TCP, and UDP where the family speaks it).
  GT06_PORT: listenerPort(5023),
  SUNTECH_PORT: listenerPort(5011),
  TELTONIKA_PORT: listenerPort(5027),
  QUECLINK_PORT: listenerPort(5004),
  WIALON_IPS_PASSWORD: optionalText,
  FLESPI_STREAM_SECRET: optionalText,
  /**
   * `required`: a device proves its password (or comes through a secret-protected stream)
   * unless its tracker lets it in without one; `optional`: a tracker without a password of
   * its own takes any device that gives its identifier (only for a closed network).
   */
  DEVICE_AUTH: v.optional(
    v.picklist(['required', 'optional'], 'use required ou optional'),
    'required',
  ),
  /** The host name devices are told to send to (default: PUBLIC_URL's). */
  DEVICE_HOST: optionalText,
  /** Seconds a second session of a tracker may stay silent before it is taken for dead. */
  DEVICE_SESSION_LIVE_SECONDS: int(120, 1),
  METRICS_TOKEN: v.pipe(
    optionalText,
    v.check((value) => value === undefined || value.length >= 16, 'deve ter 16 caracteres ou mais'),
  ),
  SIMULATOR: v.optional(v.picklist(['on', 'off'], 'use on ou off'), 'on'),
  SIMULATOR_INTERVAL_MS: int(10_000, 100),
  INGEST_DROP_ZERO: bool(true),
  INGEST_MAX_FUTURE_SECONDS: int(60, 0),
  INGEST_MAX_JUMP_KMH: int(1000, 1),
  /** Ingest batches written at once (0: automatic, 1 on PGlite and 4 on PostgreSQL). */
  INGEST_BATCHES_IN_FLIGHT: int(0, 0),
  INGEST_MAX_BACKLOG: int(50_000, 100),
  POSITION_RETENTION_MONTHS: int(0, 0),
  /** Days the audit log keeps its lines (0: forever). */
  AUDIT_RETENTION_DAYS: int(365, 0),
  LOG_LEVEL: v.optional(v.picklist(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  SEED_DEMO: bool(true),
  SEED_DEMO_FLEET: bool(true),
  SEED_DEMO_HISTORY_DAYS: int(7, 0),
  SEED_DEMO_ALERTS: bool(true),
  TRUST_PROXY: proxyHops,
  LOGIN_MAX_CONCURRENT: int(2, 1),
  SESSION_MAX_AGE: int(90 * 24 * 3600, 60),
  REFRESH_REUSE_GRACE_SECONDS: int(30, 0),
  STREAM_HEARTBEAT_SECONDS: int(15, 1),
  WIALON_IPS_LOGIN_TIMEOUT_SECONDS: int(30, 1),
  WIALON_IPS_MAX_CONNECTIONS_PER_ADDRESS: int(100, 1),
  COMMAND_CONFIRM_TIMEOUT_SECONDS: int(120, 1),
  COMMAND_EXPIRY_SECONDS: int(24 * 3600, 1),
  COMMAND_POLL_SECONDS: int(5, 1),
  MAP_TILE_URL: optionalText,
  VITE_MAP_TILE_URL: optionalText,
  MAP_PMTILES_FILE: optionalText,
  MAP_STYLE: optionalText,
  MAP_ATTRIBUTION: optionalText,
  FIREBASE_HOSTS: list,
  LOGIN_SLOWDOWN_AFTER: int(3, 1),
  LOGIN_SLOWDOWN_MS: int(500, 0),
  LOGIN_BLOCK_AFTER: int(10, 1),
  LOGIN_ACCOUNT_CEILING: int(100, 1),
  LOGIN_ADDRESS_BLOCK_AFTER: int(50, 1),
  LOGIN_BLOCK_MINUTES: int(15, 1),
  ALERT_ENGINE: v.optional(v.picklist(['on', 'off'], 'use on ou off'), 'on'),
  ALERT_GEOFENCE_HYSTERESIS_METERS: int(25, 0),
  ALERT_TIMEOUT_CHECK_SECONDS: int(60, 1),
  ALERT_MAIL_FLUSH_SECONDS: int(10, 1),
  // Payments (Asaas API v3) and the support contact.
  PAYMENTS_URL: v.pipe(
    optionalText,
    v.check((value) => value === undefined || /^https?:\/\//i.test(value), 'deve ser uma URL'),
  ),
  PAYMENTS_TOKEN: optionalText,
  PAYMENTS_WEBHOOK_TOKEN: v.pipe(
    optionalText,
    v.check((value) => value === undefined || value.length >= 16, 'deve ter 16 caracteres ou mais'),
  ),
  PAYMENTS_SYNC_SECONDS: int(300, 0),
  PAYMENTS_DEMO: bool(true),
  SUPPORT_EMAIL: optionalText,
  SUPPORT_PHONE: optionalText,
  SUPPORT_WHATSAPP: v.pipe(
    optionalText,
    v.check(
      (value) => value === undefined || /^https:\/\//i.test(value) || /^[\d\s()+-]+$/.test(value),
      'use um link https:// ou um número',
    ),
  ),
  SUPPORT_DEMO: bool(true),
  // Push: Firebase Cloud Messaging when all three FIREBASE_* are set, else Web Push.
  FIREBASE_SERVICE_ACCOUNT: optionalText,
  FIREBASE_WEB_CONFIG: optionalText,
  FIREBASE_VAPID_KEY: optionalText,
  FCM_URL: v.optional(v.pipe(v.string(), v.url('deve ser uma URL')), 'https://fcm.googleapis.com'),
  FIREBASE_TOKEN_URL: v.optional(v.pipe(v.string(), v.url('deve ser uma URL'))),
  WEB_PUSH_SUBJECT: v.optional(
    v.pipe(v.string(), v.regex(/^(mailto:|https:\/\/)/, 'use mailto:endereco ou uma URL https://')),
  ),
  PUSH_INSECURE_ENDPOINTS: bool(false),
  PUSH_ENDPOINT_HOSTS: optionalText,
  // Report files, e-mail delivery and automated reports.
  REPORT_MAIL_MAX_BYTES: int(10 * 1024 * 1024, 1),
  REPORT_LINK_TTL_HOURS: int(72, 1),
  REPORT_FILES_DIR: optionalText,
  AUTO_REPORTS: v.optional(v.picklist(['on', 'off'], 'use on ou off'), 'on'),
  AUTO_REPORT_CHECK_SECONDS: int(60, 1),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /**
   * A PGlite data folder saved as a tarball (its `dumpDataDir()`) that an in-memory database
   * (DATA_DIR=memory://) starts from instead of an empty one; ignored on a folder.
   */
  dataSnapshot: string | undefined;
  staticDir: string;
  databaseUrl: string | undefined;
  /**
   * Riding through a database that goes away: the longest pause between two attempts to reach
   * it again, and how long opening a connection may take (server/platform/db/health.ts).
   */
  database: {
    retryMaxMs: number;
    connectTimeoutMs: number;
    /** PGlite only: its page cache, as PostgreSQL writes a size ('128MB'); its default when unset. */
    pgliteSharedBuffers: string | undefined;
  };
  /** On SIGTERM, how long the server may take to finish what it acknowledged and stop. */
  shutdownTimeoutMs: number;
  publicUrl: string;
  jwtSecret: string | undefined;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  /** Absolute lifetime of a session (a refresh-token family) from its sign-in, in seconds. */
  sessionMaxAge: number;
  /** A just-rotated refresh token still refreshes for this long (two tabs at once). */
  refreshReuseGrace: number;
  setPasswordTokenTtl: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  cepUrl: string;
  plateLookup: { url: string | undefined; token: string | undefined };
  integrations: Record<
    'getrak' | 'trackconnect' | 'flespi' | 'wialon',
    { url: string | undefined; token: string | undefined }
  >;
  uploadDir: string;
  /** null when the listener is off ('off'); 0 picks a free port. */
  osmandPort: number | null;
  /** GT06_PORT, SUNTECH_PORT, TELTONIKA_PORT, QUECLINK_PORT (null: off). */
  nativePorts: Record<'gt06' | 'suntech' | 'teltonika' | 'queclink', number | null>;
  /** Wialon IPS over TCP: null when off; 0 picks a free port. */
  wialon: {
    port: number | null;
    password: string | undefined;
    loginTimeoutMs: number;
    maxConnectionsPerAddress: number;
  };
  /** Commands to our own trackers (Wialon IPS downlink). */
  commands: { confirmTimeoutMs: number; expiryMs: number; pollMs: number };
  /** Live stream: how often the connection is checked (user, token) and kept alive. */
  streamHeartbeatMs: number;
  /**
   * The base map (see src/contract/map.ts): a PMTiles archive served by this server, else a
   * MapLibre style, else raster tiles from `tileUrl` (null: none, only the built-in base).
   */
  map: {
    tileUrl: string | null;
    pmtilesFile: string | undefined;
    /** A style's URL (http/https) or a JSON file served at /map/style.json. */
    style: { url: string } | { file: string } | undefined;
    attribution: string | undefined;
  };
  /** What the Content-Security-Policy allows beyond this origin. */
  csp: { mapSources: string[]; firebaseHosts: string[] };
  /** The shared secret of the flespi HTTP stream; the stream is refused without it. */
  flespiStreamSecret: string | undefined;
  /** Who may speak for a tracker (server/ingest/identity.ts). */
  devices: {
    auth: 'required' | 'optional';
    /** The host name shown to installers in a tracker's connection settings. */
    host: string;
    /** A second session silent this long while another speaks is taken for dead. */
    sessionLiveMs: number;
  };
  /** The bearer token of GET /metrics (Prometheus); without it the route is off (404). */
  metricsToken: string | undefined;
  /** The demo's moving fleet (only with the demo seed and the OsmAnd listener on). */
  simulator: { on: boolean; intervalMs: number };
  ingest: {
    dropZero: boolean;
    maxFutureSeconds: number;
    maxJumpKmh: number;
    /** Batches written at once; 0: automatic (one on PGlite, four on PostgreSQL). */
    batchesInFlight: number;
    /** Fixes waiting to be written past which HTTP sources are answered 503 (see Pipeline). */
    maxBacklog: number;
  };
  /** Positions older than this many months are dropped, in whole months (0: kept forever). */
  positionRetentionMonths: number;
  /** Audit lines older than this many days are deleted (0: kept forever). */
  auditRetentionDays: number;
  outsideTimeoutMs: number;
  seedDemo: boolean;
  seedDemoFleet: boolean;
  /** Days of past positions the demo writes on first start (0: none). */
  seedDemoHistoryDays: number;
  /** The demo's alert rules and geofences (with the demo fleet). */
  seedDemoAlerts: boolean;
  /** Proxies in front of the server whose X-Forwarded-For hops are trusted (0: none). */
  trustProxy: number;
  throttle: {
    /** Sign-in attempts of one account evaluated at the same time, at most. */
    maxConcurrent: number;
    slowdownAfter: number;
    slowdownMs: number;
    /** Failures from one address that block it for that account. */
    blockAfter: number;
    /** Failures of one account, from anywhere, that block it except from known addresses. */
    accountCeiling: number;
    addressBlockAfter: number;
    blockMinutes: number;
  };
  /** The alert engine (server/alerts/): off only to measure ingest without it. */
  alerts: {
    engine: boolean;
    /** Metres across a geofence border that confirm a crossing with one fix. */
    hysteresisMeters: number;
    /** How often the LOCATION_TIMEOUT check runs. */
    timeoutCheckMs: number;
    /** How often ended minutes of alert e-mails are sent. */
    mailFlushMs: number;
  };
  /**
   * Payments through Asaas (API v3): the API's base URL (…/v3 included or not) and access
   * token, the token Asaas sends in `asaas-access-token` with each webhook (without it every
   * webhook is refused), how long a customer's charges read from Asaas stay fresh before the
   * next read asks again (webhooks update them meanwhile), and whether the demo may start
   * its built-in stand-in (only with the demo seed and no PAYMENTS_URL).
   */
  payments: {
    url: string | undefined;
    token: string | undefined;
    webhookToken: string | undefined;
    syncMs: number;
    demo: boolean;
  };
  /**
   * The provider's support contact (SPEC §1): shown only when configured; `demo`: whether the
   * demo gives its own when none is (only with the demo seed, server/start.ts).
   */
  support: {
    email: string | undefined;
    phone: string | undefined;
    whatsapp: string | undefined;
    demo: boolean;
  };
  /** Push notifications (server/push/): FCM when `firebase` is set, Web Push always. */
  push: PushConfig;
  /** Report files e-mailed (attached up to maxMailBytes, else a link) and scheduled. */
  reportFiles: {
    maxMailBytes: number;
    linkTtlMs: number;
    /** Where files behind download links are kept until they expire. */
    dir: string;
    /** The automated reports' scheduler in this process. */
    scheduler: boolean;
    checkMs: number;
  };
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = v.safeParse(EnvSchema, env);
  if (!result.success) {
    const lines = flattenIssues(result.issues).map((i) => `${i.path}: ${i.message}`);
    throw new ConfigError(`Configuração inválida:\n  ${lines.join('\n  ')}`);
  }
  const e = result.output;
  const tileUrl =
    e.MAP_TILE_URL ?? e.VITE_MAP_TILE_URL ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
  const map: Config['map'] = {
    tileUrl: tileUrl === 'off' ? null : tileUrl,
    pmtilesFile: e.MAP_PMTILES_FILE ? path.resolve(e.MAP_PMTILES_FILE) : undefined,
    style: e.MAP_STYLE
      ? /^https?:\/\//i.test(e.MAP_STYLE)
        ? { url: e.MAP_STYLE }
        : { file: path.resolve(e.MAP_STYLE) }
      : undefined,
    attribution: e.MAP_ATTRIBUTION,
  };
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR === 'memory://' ? e.DATA_DIR : path.resolve(e.DATA_DIR),
    dataSnapshot: e.DATA_SNAPSHOT ? path.resolve(e.DATA_SNAPSHOT) : undefined,
    staticDir: path.resolve(e.STATIC_DIR),
    databaseUrl: e.DATABASE_URL,
    database: {
      retryMaxMs: e.DATABASE_RETRY_MAX_MS,
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS,
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    sessionMaxAge: e.SESSION_MAX_AGE,
    refreshReuseGrace: e.REFRESH_REUSE_GRACE_SECONDS,
    setPasswordTokenTtl: e.SET_PASSWORD_TOKEN_TTL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    cepUrl: e.CEP_URL.replace(/\/+$/, ''),
    plateLookup: { url: e.PLATE_LOOKUP_URL, token: e.PLATE_LOOKUP_TOKEN },
    integrations: {
      getrak: { url: e.GETRAK_URL, token: e.GETRAK_TOKEN },
      trackconnect: { url: e.TRACKCONNECT_URL, token: e.TRACKCONNECT_TOKEN },
      flespi: { url: e.FLESPI_URL, token: e.FLESPI_TOKEN },
      wialon: { url: e.WIALON_URL, token: e.WIALON_TOKEN },
    },
    osmandPort: e.OSMAND_PORT,
    nativePorts: {
      gt06: e.GT06_PORT,
      suntech: e.SUNTECH_PORT,
      teltonika: e.TELTONIKA_PORT,
      queclink: e.QUECLINK_PORT,
    },
    wialon: {
      port: e.WIALON_IPS_PORT,
      password: e.WIALON_IPS_PASSWORD,
      loginTimeoutMs: e.WIALON_IPS_LOGIN_TIMEOUT_SECONDS * 1000,
      maxConnectionsPerAddress: e.WIALON_IPS_MAX_CONNECTIONS_PER_ADDRESS,
    },
    commands: {
      confirmTimeoutMs: e.COMMAND_CONFIRM_TIMEOUT_SECONDS * 1000,
      expiryMs: e.COMMAND_EXPIRY_SECONDS * 1000,
      pollMs: e.COMMAND_POLL_SECONDS * 1000,
    },
    streamHeartbeatMs: e.STREAM_HEARTBEAT_SECONDS * 1000,
    map,
    csp: {
      mapSources: mapSources(map),
      firebaseHosts: e.FIREBASE_HOSTS.length
        ? e.FIREBASE_HOSTS
        : e.FIREBASE_WEB_CONFIG
          ? FIREBASE_PAGE_HOSTS
          : [],
    },
    flespiStreamSecret: e.FLESPI_STREAM_SECRET,
    devices: {
      auth: e.DEVICE_AUTH,
      host: e.DEVICE_HOST ?? hostOf(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`),
      sessionLiveMs: e.DEVICE_SESSION_LIVE_SECONDS * 1000,
    },
    metricsToken: e.METRICS_TOKEN,
    simulator: { on: e.SIMULATOR === 'on', intervalMs: e.SIMULATOR_INTERVAL_MS },
    ingest: {
      dropZero: e.INGEST_DROP_ZERO,
      maxFutureSeconds: e.INGEST_MAX_FUTURE_SECONDS,
      maxJumpKmh: e.INGEST_MAX_JUMP_KMH,
      batchesInFlight: e.INGEST_BATCHES_IN_FLIGHT,
      maxBacklog: e.INGEST_MAX_BACKLOG,
    },
    positionRetentionMonths: e.POSITION_RETENTION_MONTHS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    uploadDir: path.resolve(
      e.UPLOAD_DIR ??
        path.join(
          e.DATA_DIR === 'memory://' ? path.join(process.cwd(), '.tmp') : e.DATA_DIR,
          'uploads',
        ),
    ),
    outsideTimeoutMs: e.OUTSIDE_TIMEOUT_MS,
    seedDemo: e.SEED_DEMO,
    seedDemoFleet: e.SEED_DEMO_FLEET,
    seedDemoHistoryDays: e.SEED_DEMO_HISTORY_DAYS,
    seedDemoAlerts: e.SEED_DEMO_ALERTS,
    trustProxy: e.TRUST_PROXY,
    throttle: {
      maxConcurrent: e.LOGIN_MAX_CONCURRENT,
      slowdownAfter: e.LOGIN_SLOWDOWN_AFTER,
      slowdownMs: e.LOGIN_SLOWDOWN_MS,
      blockAfter: e.LOGIN_BLOCK_AFTER,
      accountCeiling: e.LOGIN_ACCOUNT_CEILING,
      addressBlockAfter: e.LOGIN_ADDRESS_BLOCK_AFTER,
      blockMinutes: e.LOGIN_BLOCK_MINUTES,
    },
    alerts: {
      engine: e.ALERT_ENGINE === 'on',
      hysteresisMeters: e.ALERT_GEOFENCE_HYSTERESIS_METERS,
      timeoutCheckMs: e.ALERT_TIMEOUT_CHECK_SECONDS * 1000,
      mailFlushMs: e.ALERT_MAIL_FLUSH_SECONDS * 1000,
    },
    payments: {
      url: e.PAYMENTS_URL?.replace(/\/+$/, ''),
      token: e.PAYMENTS_TOKEN,
      webhookToken: e.PAYMENTS_WEBHOOK_TOKEN,
      syncMs: e.PAYMENTS_SYNC_SECONDS * 1000,
      demo: e.PAYMENTS_DEMO,
    },
    support: {
      email: e.SUPPORT_EMAIL,
      phone: e.SUPPORT_PHONE,
      whatsapp: e.SUPPORT_WHATSAPP,
      demo: e.SUPPORT_DEMO,
    },
    push: readPushConfig(e),
    reportFiles: {
      maxMailBytes: e.REPORT_MAIL_MAX_BYTES,
      linkTtlMs: e.REPORT_LINK_TTL_HOURS * 3_600_000,
      dir: path.resolve(
        e.REPORT_FILES_DIR ??
          path.join(
            e.DATA_DIR === 'memory://' ? path.join(process.cwd(), '.tmp') : e.DATA_DIR,
            'report-files',
          ),
      ),
      scheduler: e.AUTO_REPORTS === 'on',
      checkMs: e.AUTO_REPORT_CHECK_SECONDS * 1000,
    },
  };
}

/**
 * The outside origins the chosen base map needs (images and fetches): the tile server, or
 * the style's host; none for a PMTiles archive served by this server with a local style.
 * The sources of the base maps not chosen are not allowed.
 */
function mapSources(map: Config['map']): string[] {
  const style = map.style && 'url' in map.style ? tileSource(map.style.url) : undefined;
  if (map.pmtilesFile) return style ? [style] : [];
  if (map.style) return style ? [style] : [];
  const tiles = map.tileUrl ? tileSource(map.tileUrl) : undefined;
  return tiles ? [tiles] : [];
}

/** Push settings; a bad Firebase value stops the start like any other variable. */
function readPushConfig(e: Parameters<typeof pushConfig>[0]): PushConfig {
  try {
    return pushConfig(e);
  } catch (err) {
    if (err instanceof PushConfigError)
      throw new ConfigError(`Configuração inválida:\n  ${err.message}`);
    throw err;
  }
}

/** The host name of a URL ('localhost' when it is none). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}
