/**
 * A quiet server for a bench part: its own in-memory PGlite (or the PostgreSQL database
 * given), ephemeral HTTP port, no tracker listeners, simulator, demo fleet or logs unless
 * `env` turns them on.
 */
import { loadConfig } from '../server/platform/config';
import { createLogger } from '../server/platform/log';
import { type RunningServer, startServer } from '../server/start';

export function benchServer(
  databaseUrl: string | undefined,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  return startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: 'memory://',
      OSMAND_PORT: 'off',
      WIALON_IPS_PORT: 'off',
      SIMULATOR: 'off',
      SEED_DEMO_FLEET: 'false',
      LOG_LEVEL: 'silent',
      ...env,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
    createLogger('silent'),
  );
}
