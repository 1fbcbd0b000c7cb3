/**
 * Another Rastro process for journeys that need a configuration of their own (a base map,
 * say): started as `npm run serve` starts it, on an in-memory database with the demo, on
 * its own port, serving the same copy of the build. Stopped by the returned function.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { E2E_SECRET, E2E_STATIC } from './env';

export async function startExtraServer(port: number, env: Record<string, string>) {
  let log = '';
  const child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: 'memory://',
      STATIC_DIR: E2E_STATIC,
      JWT_SECRET: E2E_SECRET,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      OSMAND_PORT: 'off',
      WIALON_IPS_PORT: 'off',
      GT06_PORT: 'off',
      SUNTECH_PORT: 'off',
      TELTONIKA_PORT: 'off',
      QUECLINK_PORT: 'off',
      SIMULATOR: 'off',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`o servidor extra terminou:\n${log}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`o servidor extra não respondeu:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
