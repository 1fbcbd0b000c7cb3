/**
 * `npm start` / `npm run serve`: the one Rastro process.
 *
 * SIGTERM (systemd, a container runtime) and SIGINT stop it gracefully within
 * SHUTDOWN_TIMEOUT_SECONDS (`RunningServer.close`); a second signal, or the bound passing,
 * ends it at once. A database failure that escaped its handler is logged, never the end of
 * the process: the database comes back, and the server with it.
 */
import { ConfigError, loadConfig } from './platform/config';
import { isConnectionError } from './platform/db/health';
import { createLogger } from './platform/log';
import { startServer } from './start';

/** The share of the bound given to the graceful steps; the rest is the margin to exit. */
const GRACEFUL_SHARE = 0.9;

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  process.on('unhandledRejection', (reason) => {
    if (isConnectionError(reason)) {
      log.error('database failure not handled where it happened', { err: reason });
      return;
    }
    // Any other: a bug, and the process ends as Node would end it.
    throw reason;
  });
  const server = await startServer(config, log);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      log.warn('stopping at once (second signal)', { signal });
      process.exit(1);
    }
    stopping = true;
    const timeoutMs = config.shutdownTimeoutMs;
    log.info('stopping', { signal, timeoutSeconds: timeoutMs / 1000 });
    setTimeout(() => {
      log.error('stop: not finished within SHUTDOWN_TIMEOUT_SECONDS, exiting', { timeoutMs });
      process.exit(1);
    }, timeoutMs).unref();
    server.close({ deadlineMs: Math.floor(timeoutMs * GRACEFUL_SHARE) }).then(
      () => process.exit(0),
      (err: unknown) => {
        log.error('stop: failed', { err });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Falha ao iniciar o Rastro: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
