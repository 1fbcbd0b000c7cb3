/** `npm start` / `npm run serve`: the one Rastro process. */
import { ConfigError, loadConfig } from './config';
import { createLogger } from './log';
import { startServer } from './start';

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
  const server = await startServer(config, log);
  const stop = async (signal: string) => {
    log.info('stopping', { signal });
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Falha ao iniciar o Rastro: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
