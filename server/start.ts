/**
 * Starts Rastro: listens at once (alive, not ready: /health/live answers while the rest
 * starts), opens and migrates the database (waiting for it when it does not answer yet),
 * seeds the demo on an empty database, resolves the signing secret, then serves the API and
 * the device listeners. Used by main.ts and by tests and e2e, so that they run the very same
 * start path. `close()` is the graceful stop (see `RunningServer.close`).
 */

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { hashPassword } from './accounts/auth/passwords';
import { createCepLookup } from './adapters/cep';
import { createIntegrations } from './adapters/integrations';
import { createPlateLookup } from './adapters/plates';
import { createAlertEngine } from './alerts/engine';
import { createAlertMail, mailNotifier } from './alerts/mail';
import { createApp, startingApp } from './app';
import { seedDemoAttachments } from './demo/attachments';
import {
  DEMO_PASSWORD,
  DEMO_SUPPORT,
  isEmpty,
  seedDemo,
  seedDemoAlerts,
  seedDemoFleet,
} from './demo/seed';
import { demoDevices, startSimulator } from './demo/simulator';
import { writeDemoHistory } from './demo/write-history';
import type { Deps } from './deps';
import { guardPipeline } from './guarded-pipeline';
import { createDeviceStatus, DEVICE_STATUS_FLUSH_MS } from './ingest/device-status';
import { createDownlink } from './ingest/downlink';
import { CODECS, type NativeProtocol } from './ingest/native/codecs';
import { startNativeListeners } from './ingest/native/start';
import { startOsmand } from './ingest/osmand';
import { createPipeline } from './ingest/pipeline';
import { noPositionsYet, pruneLocationBatches } from './ingest/queries/positions';
import { dropExpiredPositions, pruneExpiredAudit } from './ingest/queries/retention';
import { createTrackerCache } from './ingest/tracker-cache';
import { startWialon } from './ingest/wialon/tcp';
import { startWialonUdp } from './ingest/wialon/udp';
import { createMailer } from './mail/mailer';
import { createAsaas } from './payments/asaas';
import { startDemoPayments } from './payments/demo';
import type { Config } from './platform/config';
import { type Database, openDatabase } from './platform/db/client';
import { isConnectionError } from './platform/db/health';
import { ensurePartitions } from './platform/db/partitions';
import { getOrCreateSetting } from './platform/db/settings';
import { createJobs } from './platform/jobs';
import { createLifecycle } from './platform/lifecycle';
import { countingLogger, createLogger, type LogCounts, type Logger } from './platform/log';
import { createMetrics } from './platform/metrics';
import { createPush } from './push/notifier';
import { vapidKeys } from './push/webpush';
import { createLiveFeed } from './realtime/feed';
import { createAutoReports } from './reports/auto/scheduler';
import { createReportFiles } from './reports/files/delivery';
import { VERSION } from './version';

export interface RunningServer {
  url: string;
  /** The OsmAnd listener's port, when it runs. */
  osmandPort: number | null;
  /** The Wialon IPS listener's port, when it runs. */
  wialonPort: number | null;
  /** The makers' protocols' listeners' ports (TCP, and UDP on the same number), when they run. */
  nativePorts: Partial<Record<NativeProtocol, number>>;
  deps: Deps;
  /**
   * The graceful stop: readiness answers 503 and live streams end; no new connection is
   * accepted; what devices sent is written and answered, and new messages are refused as
   * "not stored"; then every connection is closed, the periodic work stopped and the
   * database closed. By `deadlineMs` (SHUTDOWN_TIMEOUT_SECONDS by default) whatever is left
   * is cut: nothing acknowledged is lost, since a fix is acknowledged only after its commit.
   */
  close(options?: { deadlineMs?: number }): Promise<void>;
}

/** Ingest batches written at once on PostgreSQL by default (INGEST_BATCHES_IN_FLIGHT). */
const BATCHES_ON_POSTGRES = 4;

/**
 * The configuration as the server runs it: with the demo seed on, SUPPORT_DEMO and no contact
 * of its own, the demo's support contact, so that a newcomer sees 'Suporte' in the menu and
 * beside the invoices (never with SEED_DEMO=false, as the demo's Asaas).
 */
export function withDemoDefaults(config: Config): Config {
  const { email, phone, whatsapp, demo } = config.support;
  if (!config.seedDemo || !demo || email || phone || whatsapp) return config;
  return { ...config, support: { ...DEMO_SUPPORT, demo } };
}

/**
 * Brings an open database to what the server runs on: migrated, this month's partitions,
 * retention applied, and the demo seeded when it is empty. Apart from prepare() so that tests
 * can build one such database and copy it rather than repeat this for every server.
 */
export async function migrateAndSeed(database: Database, config: Config, log: Logger) {
  await untilReachable(database, config, log, () => database.migrate());
  reportPartitions(log, await ensurePartitions(database.db));
  await applyRetention(database.db, config, log);
  log.info('database ready', {
    kind: database.kind,
    dataDir: database.kind === 'pglite' ? config.dataDir : undefined,
  });
  if (config.seedDemo && (await isEmpty(database.db))) {
    await seedDemo(database.db, await hashPassword(DEMO_PASSWORD));
    if (config.seedDemoFleet) {
      await seedDemoFleet(database.db);
      await seedDemoAttachments(database.db, config.uploadDir);
      if (config.seedDemoAlerts) await seedDemoAlerts(database.db, config.simulator.intervalMs);
    }
    log.info('demo seeded: sign in as admin@rastro.demo / rastro-demo (demo only)');
  }
}

export async function prepare(
  given: Config,
  givenLog: Logger = createLogger(given.logLevel),
): Promise<Deps> {
  const config = withDemoDefaults(given);
  const logged: LogCounts = { warn: 0, error: 0 };
  const log = countingLogger(givenLog, logged);
  if (config.support !== given.support)
    log.info('demo: contato de suporte de demonstração (defina SUPPORT_* ou SUPPORT_DEMO=false)', {
      email: config.support.email,
    });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    snapshot: config.dataSnapshot,
    log,
    retryMaxMs: config.database.retryMaxMs,
    connectTimeoutMs: config.database.connectTimeoutMs,
    pgliteSharedBuffers: config.database.pgliteSharedBuffers,
  });
  await migrateAndSeed(database, config, log);
  const secret =
    config.jwtSecret ??
    (await getOrCreateSetting(database.db, 'jwt_secret', () =>
      randomBytes(48).toString('base64url'),
    ));
  // Links in logged e-mails are credentials: written to the log in the demo only.
  const mailer = createMailer(
    { smtpUrl: config.smtpUrl, from: config.mailFrom, logContent: config.seedDemo },
    log,
  );
  if (!mailer.configured) {
    log.warn(
      'SMTP_URL não configurado: os e-mails (primeiro acesso, recuperação de senha) serão apenas registrados no log',
    );
  }
  const cep = createCepLookup({ baseUrl: config.cepUrl, timeoutMs: config.outsideTimeoutMs });
  const live = await createLiveFeed(database, log);
  const keys = await vapidKeys(database.db);
  const push = createPush(database.db, config, keys, log);
  const engine = createAlertEngine(
    database.db,
    config,
    log,
    [live.notifier, mailNotifier, push.notifier],
    { rowLocks: database.kind !== 'pglite' },
  );
  const alertMail = createAlertMail(database.db, mailer, config.publicUrl, log);
  const devices = createDeviceStatus(database.db, log);
  const pipeline = guardPipeline(
    createPipeline(database.db, config, log, config.alerts.engine ? engine.processor : undefined, {
      batchesInFlight:
        config.ingest.batchesInFlight || (database.kind === 'pglite' ? 1 : BATCHES_ON_POSTGRES),
      // One process owns the embedded database: trackers and last fixes can stay in memory.
      trackerCache: database.kind === 'pglite' ? createTrackerCache(database.db) : undefined,
      observer: devices,
    }),
    database.health,
  );
  live.attach(pipeline);
  const metrics = createMetrics(VERSION);
  metrics.counter(
    'rastro_log_messages_total',
    'Warnings and errors logged, by level (whatever LOG_LEVEL shows): e-mails and pushes not sent, failed writes...',
    () => [
      { labels: { level: 'warn' }, value: logged.warn },
      { labels: { level: 'error' }, value: logged.error },
    ],
  );
  metrics.counter(
    'rastro_ingest_fixes_total',
    'Positions received, by result: stored, or why they were not (unknown_device, no_fix, zero_coordinates, impossible_jump, duplicate...).',
    () =>
      Object.entries(pipeline.stats()).map(([result, value]) => ({ labels: { result }, value })),
  );
  metrics.gauge('rastro_ingest_queued_fixes', 'Positions waiting to be written.', () =>
    pipeline.queued(),
  );
  metrics.counter(
    'rastro_device_status_dropped_total',
    'Device news (last communication, unknown identifiers) dropped because too much waited to be written.',
    () => [{ labels: {}, value: devices.dropped() }],
  );
  metrics.gauge(
    'rastro_ingest_backlogged',
    '1 while INGEST_MAX_BACKLOG positions or more wait (OsmAnd and flespi are answered 503).',
    () => (pipeline.backlogged() ? 1 : 0),
  );
  const jobs = createJobs(database.db, database.health, log);
  databaseMetrics(metrics, database, pipeline.refused);
  metrics.counter(
    'rastro_job_rounds_total',
    "Rounds of the periodic jobs, by job and result: ran, skipped (another process held the job's lease), paused (the database did not answer), failed.",
    () => jobs.stats().map(({ job, result, value }) => ({ labels: { job, result }, value })),
  );
  const reportFiles = createReportFiles({ db: database.db, mailer, config, log });
  return {
    database,
    config,
    log,
    mailer,
    secret,
    cep,
    integrations: createIntegrations(config),
    plates: createPlateLookup({ ...config.plateLookup, timeoutMs: config.outsideTimeoutMs }),
    pipeline,
    downlink: createDownlink(
      database.db,
      { ...config.commands, sessionLiveMs: config.devices.sessionLiveMs },
      log,
      engine.lockConfirmed,
      (trackerId, state) => {
        devices.duplicate(trackerId, state);
        if (state)
          void engine
            .duplicateDevice(trackerId, state.since, state.addresses)
            .catch((err: unknown) => log.error('alerts: duplicate device not raised', { err }));
      },
    ),
    devices,
    alerts: { engine, bus: live.alerts, mail: alertMail },
    live,
    payments: createAsaas({ ...config.payments, timeoutMs: config.outsideTimeoutMs }),
    push: { sender: push, vapidPublicKey: keys.publicKey },
    reportFiles,
    metrics,
    jobs,
    lifecycle: createLifecycle(),
    autoReports: createAutoReports({
      db: database.db,
      files: reportFiles,
      log,
      checkMs: config.reportFiles.checkMs,
    }),
  };
}

/**
 * Runs `work` (the first contact with the database) until the database answers: a server
 * started before its database, or during a failover, waits for it instead of exiting. Any
 * other failure (a wrong password, a migration that fails) stops the start.
 */
async function untilReachable(
  database: Database,
  config: Config,
  log: Logger,
  work: () => Promise<void>,
) {
  let pause = Math.min(100, config.database.retryMaxMs);
  for (;;) {
    try {
      return await work();
    } catch (err) {
      if (!isConnectionError(err)) {
        await database.close().catch(() => {});
        throw err;
      }
      log.warn('database: not reachable yet, trying again', {
        err: err instanceof Error ? err.message : String(err),
        pauseMs: pause,
      });
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, config.database.retryMaxMs);
    }
  }
}

/** The database's figures: whether it answers, its outages, the writes it refused. */
function databaseMetrics(
  metrics: Deps['metrics'],
  database: Database,
  refused: () => Record<string, number>,
) {
  metrics.gauge(
    'rastro_database_up',
    '1 while the database answers, 0 while it cannot be reached (writes are refused, the API answers 503).',
    () => (database.health.up() ? 1 : 0),
  );
  metrics.counter(
    'rastro_database_outages_total',
    'Times the database was found unreachable since the process started.',
    () => database.health.outages(),
  );
  metrics.counter(
    'rastro_database_refused_writes_total',
    'Positions not stored, and not acknowledged to their devices, because the database could not be reached; by source (protocol).',
    () => Object.entries(refused()).map(([source, value]) => ({ labels: { source }, value })),
  );
}

/**
 * Drops the positions past POSITION_RETENTION_MONTHS and the audit lines past
 * AUDIT_RETENTION_DAYS; a failure is logged, tried again later.
 */
async function applyRetention(db: Deps['database']['db'], config: Config, log: Logger) {
  if (config.positionRetentionMonths > 0) {
    try {
      const result = await dropExpiredPositions(db, config.positionRetentionMonths);
      if (result.dropped.length || result.deleted)
        log.info('positions: retention applied', { ...result });
    } catch (err) {
      log.warn('positions: retention not applied this time', { err });
    }
  }
  try {
    const deleted = await pruneExpiredAudit(db, config.auditRetentionDays);
    if (deleted) log.info('audit: retention applied', { deleted });
  } catch (err) {
    log.warn('audit: retention not applied this time', { err });
  }
}

/** Months left in the default partition are expected; any other failure is an error. */
function reportPartitions(log: Logger, result: Awaited<ReturnType<typeof ensurePartitions>>) {
  if (result.skipped.length)
    log.warn('positions: months left in the default partition', { skipped: result.skipped });
  for (const failure of result.failed)
    log.error('positions: could not create a partition', {
      partition: failure.name,
      err: failure.error,
    });
}

/** An HTTP server that stops accepting now and resolves once its last connection is gone. */
function closing(server: { close(callback: () => void): unknown }): Promise<void> {
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Resolves when `signal` aborts (a deadline). */
function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

/** Cuts the connections still open on an HTTP server (the stop's deadline passed). */
function cutConnections(server: unknown) {
  if (server && typeof server === 'object' && 'closeAllConnections' in server)
    (server as { closeAllConnections(): void }).closeAllConnections();
}

export async function startServer(config: Config, log?: Logger): Promise<RunningServer> {
  // Listening from the first moment: alive (a supervisor sees the process work) and not ready
  // while the database is reached, migrated and seeded, which can take long.
  let handler: { fetch: ReturnType<typeof createApp>['fetch'] } = startingApp(config);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve(
      {
        fetch: (request, env) => handler.fetch(request, env),
        port: config.port,
        hostname: config.host,
        // Reports of many vehicles take their ids in the query (500 ids are ~19 KB of URL).
        serverOptions: { maxHeaderSize: 64 * 1024 },
      },
      () => resolve(s),
    );
  });
  let deps: Deps;
  try {
    deps = await prepare(config, log);
  } catch (err) {
    await closing(server);
    throw err;
  }
  handler = createApp(deps);
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
  const osmand =
    config.osmandPort === null
      ? null
      : await startOsmand({
          port: config.osmandPort,
          host: config.host,
          pipeline: deps.pipeline,
          log: deps.log,
        });
  const wialon =
    config.wialon.port === null
      ? null
      : await startWialon({
          port: config.wialon.port,
          host: config.host,
          password: config.wialon.password,
          loginTimeoutMs: config.wialon.loginTimeoutMs,
          maxConnectionsPerAddress: config.wialon.maxConnectionsPerAddress,
          maxFutureSeconds: config.ingest.maxFutureSeconds,
          auth: config.devices.auth,
          status: deps.devices,
          pipeline: deps.pipeline,
          downlink: deps.downlink,
          log: deps.log,
        });
  // UDP on the same port number (devices configured for UDP send there).
  const wialonUdp = wialon
    ? await startWialonUdp({
        port: wialon.port,
        host: config.host,
        maxFutureSeconds: config.ingest.maxFutureSeconds,
        auth: config.devices.auth,
        status: deps.devices,
        pipeline: deps.pipeline,
        log: deps.log,
      })
    : null;
  const natives = await startNativeListeners(config, deps, config.host);
  for (const [protocol, listener] of natives)
    deps.metrics.gauge(
      `rastro_${protocol}_connections`,
      `Open ${CODECS[protocol].name} connections.`,
      () => listener.stats().connections,
    );
  if (wialon) {
    deps.metrics.gauge(
      'rastro_wialon_connections',
      'Open Wialon IPS connections.',
      () => wialon.stats().connections,
    );
    deps.metrics.gauge(
      'rastro_wialon_queued_lines',
      'Wialon IPS lines read and waiting for their turn, over every connection.',
      () => wialon.stats().queued,
    );
  }
  // The demo's Asaas stand-in: only with the demo seed and no PAYMENTS_URL (never production).
  const demoPayments =
    !config.payments.url && config.seedDemo && config.payments.demo
      ? await startDemoPayments()
      : undefined;
  if (demoPayments) {
    deps.payments = createAsaas({
      url: demoPayments.url,
      token: demoPayments.token,
      timeoutMs: config.outsideTimeoutMs,
    });
    deps.log.info('demo: pagamentos servidos por um Asaas de demonstração', {
      url: demoPayments.url,
    });
  }
  startJobs(deps);
  const simulate = () =>
    osmand && config.seedDemo && config.seedDemoFleet && config.simulator.on
      ? startSimulator({
          osmandUrl: `http://127.0.0.1:${osmand.port}`,
          wialon: wialon ? { host: '127.0.0.1', port: wialon.port } : undefined,
          native: Object.fromEntries(
            natives.map(([protocol, listener]) => [
              protocol,
              { host: '127.0.0.1', port: listener.port },
            ]),
          ),
          devices: demoDevices(),
          intervalMs: config.simulator.intervalMs,
          log: deps.log,
        })
      : undefined;
  // A fresh demo writes its past week first (in the background, after listening), then the
  // simulator drives on from there: live fixes always come after the history.
  const history = new AbortController();
  let stopSimulator: (() => void) | undefined;
  let writingHistory: Promise<unknown> = Promise.resolve();
  const historyDays = config.seedDemo && config.seedDemoFleet ? config.seedDemoHistoryDays : 0;
  if (historyDays > 0 && (await noPositionsYet(deps.database.db))) {
    deps.log.info('demo: gravando o histórico da semana em segundo plano', { days: historyDays });
    writingHistory = writeDemoHistory(deps.database.db, historyDays, deps.log, history.signal).then(
      () => {
        if (!history.signal.aborted) stopSimulator = simulate();
      },
      (err: unknown) => deps.log.error('demo: could not write the history', { err }),
    );
  } else stopSimulator = simulate();
  deps.log.info('Rastro no ar', { url, osmandPort: osmand?.port, wialonPort: wialon?.port });
  let stopping: Promise<void> | undefined;
  return {
    url,
    osmandPort: osmand?.port ?? null,
    wialonPort: wialon?.port ?? null,
    nativePorts: Object.fromEntries(natives.map(([protocol, l]) => [protocol, l.port])),
    deps,
    close(options = {}) {
      stopping ??= (async () => {
        const deadline = AbortSignal.timeout(options.deadlineMs ?? config.shutdownTimeoutMs);
        const started = Date.now();
        deps.lifecycle.stop();
        history.abort();
        stopSimulator?.();
        // No new connection anywhere; the API's idle keep-alive connections close now, its
        // live streams end (lifecycle) and its requests under way finish.
        const connectionsGone = Promise.all([
          closing(server),
          osmand ? closing(osmand) : undefined,
          wialon ? closing(wialon) : undefined,
          wialonUdp?.close(),
          ...natives.map(([, listener]) => listener.close()),
        ]);
        // What the devices sent is written and answered; what comes now is refused.
        const drained = await deps.pipeline.drain(deadline);
        await Promise.race([connectionsGone, aborted(deadline)]);
        if (deadline.aborted) {
          for (const cut of [server, osmand]) cutConnections(cut);
          deps.log.warn('stop: deadline reached, connections cut', {
            drained,
            unsettled: deps.pipeline.inFlight(),
          });
        }
        await Promise.race([
          Promise.all([writingHistory, deps.jobs.stop(), deps.reportFiles.idle()]),
          aborted(deadline),
        ]);
        // What the devices last told us (their communication, unknown identifiers).
        await Promise.race([deps.devices.flush(), aborted(deadline)]);
        await demoPayments?.close();
        deps.metrics.close();
        await Promise.race([deps.database.close(), aborted(deadline)]);
        deps.log.info('stopped', { ms: Date.now() - started, drained });
      })();
      return stopping;
    },
  };
}

/** Every periodic job of the process, in one place (server/platform/jobs.ts). */
function startJobs(deps: Deps) {
  const { jobs, config, database, log } = deps;
  // Commands waiting for trackers connected to this process, and commands past their time.
  jobs.every('commands:sweep', config.commands.pollMs, () => deps.downlink.sweep());
  // Once across processes: the check itself is safe twice (its dedupe keys), but it reads
  // every silent vehicle, and one process doing it each period is enough.
  jobs.every(
    'alerts:location-timeouts',
    config.alerts.timeoutCheckMs,
    () => deps.alerts.engine.checkTimeouts(),
    { once: true },
  );
  // Maintenance due and documents expiring: hourly is soon enough for km and days.
  jobs.every('alerts:upkeep', 3600_000, () => deps.alerts.engine.checkUpkeep(), {
    once: true,
  });
  // The drivers' working day: the 5 h warning gives 30 min to stop, so every minute.
  jobs.every('alerts:jornada', 60_000, () => deps.alerts.engine.checkJornada(), { once: true });
  // Alert e-mails of the minutes ended (rows are claimed one process at a time).
  jobs.every('alerts:mail', config.alerts.mailFlushMs, () => deps.alerts.mail.flush());
  // Automated reports: a round at start catches up what was missed while down.
  if (config.reportFiles.scheduler)
    jobs.every('reports:auto', config.reportFiles.checkMs, () => deps.autoReports.tick(), {
      immediately: true,
    });
  // Report files behind expired links are removed from this process's folder.
  jobs.every('reports:links', 3600_000, () => deps.reportFiles.sweep());
  // A server that runs for months keeps creating the months ahead (and dropping old ones).
  jobs.every(
    'positions:partitions',
    12 * 3600_000,
    async () => {
      reportPartitions(log, await ensurePartitions(database.db));
      await applyRetention(database.db, config, log);
    },
    { once: true },
  );
  // The index of live changes keeps an hour (server/ingest/queries/positions.ts).
  jobs.every('locations:batches', 5 * 60_000, () => pruneLocationBatches(database.db), {
    once: true,
  });
  // What each device last told us, written in batches (server/ingest/device-status.ts).
  jobs.every('devices:status', DEVICE_STATUS_FLUSH_MS, () => deps.devices.flush());
}
