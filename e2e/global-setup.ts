/**
 * Starts what the journeys run against, one stack per Playwright worker (e2e/env.ts): a local
 * SMTP server that files every message in the stack's mail folder, and Rastro itself, exactly
 * as `npm run serve` starts it (a child process on a fresh embedded database in the stack's
 * folder), serving a copy of the build. One stand-in plate lookup serves every stack.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { E2E_SECRET, E2E_TMP, type E2EStack, e2eStack } from './env';

async function startSmtp(mail: string) {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        count += 1;
        writeFileSync(path.join(mail, `${Date.now()}-${count}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A stand-in plate lookup provider (Eligo answer shape) for the vehicle form. */
async function startPlateLookup() {
  const server = createServer((req, res) => {
    const plate = new URL(req.url ?? '/', 'http://x').searchParams.get('placa');
    res.setHeader('content-type', 'application/json');
    res.end(
      plate === 'PLK1A23'
        ? JSON.stringify([
            {
              ano_fabricacao_veiculo: '2019',
              ano_modelo: '2020',
              chassi_veiculo: '9BWZZZ377VT004251',
              cor_veiculo: 'Branca',
              renavam: '01234567890',
              marca_modelo: 'VW/Gol 1.0',
              placa_veiculo: plate,
              nome_completo: 'Transportes Norte Ltda',
            },
          ])
        : '[]',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/consulta`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`o servidor saiu (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`o servidor não respondeu em 60 s:\n${output()}`);
}

/**
 * A fresh demo writes its past week in the background, then starts the simulator: the
 * journeys start once every demo vehicle has a last location and the simulator is sending.
 */
async function waitForDemoWeek(url: string, output: () => string) {
  // Every stack writes its week at the same time as the others: on fewer than two cores per
  // stack (E2E_WORKERS set above the default) each takes longer than the 90 s one stack needs.
  const deadline = Date.now() + 180_000;
  const login = await fetch(`${url}/registros/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@rastro.demo', password: 'rastro-demo' }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  while (Date.now() < deadline) {
    const res = await fetch(`${url}/registros/real-time/lastLocation`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    const items = (await res.json()) as { fixTime: string }[];
    const live = items.some((item) => Date.now() - Date.parse(item.fixTime) < 15_000);
    if (items.length >= 40 && live) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`a semana da demonstração não ficou pronta em 180 s:\n${output()}`);
}

/** One worker's Rastro and SMTP server; returns how to stop them. */
async function startStack(stack: E2EStack, plateLookupUrl: string) {
  mkdirSync(stack.mail, { recursive: true });
  cpSync('dist', stack.static, { recursive: true });
  const smtp = await startSmtp(stack.mail);
  let log = '';
  const child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(stack.port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(stack.root, 'data'),
      STATIC_DIR: stack.static,
      JWT_SECRET: E2E_SECRET,
      PUBLIC_URL: stack.url,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      PLATE_LOOKUP_URL: plateLookupUrl,
      PLATE_LOOKUP_TOKEN: 'e2e',
      LOG_LEVEL: 'warn',
      OSMAND_PORT: String(stack.port - 1),
      WIALON_IPS_PORT: String(stack.port - 2),
      // The makers' listeners: the demo's devices of each family, and the panic journey's GT06.
      GT06_PORT: String(stack.gt06Port),
      SUNTECH_PORT: String(stack.gt06Port + 1),
      TELTONIKA_PORT: String(stack.gt06Port + 2),
      QUECLINK_PORT: String(stack.gt06Port + 3),
      SIMULATOR: 'on',
      // A fix every 3 s keeps the fleet moving within every journey's wait (the map's popup
      // waits 10 s for the next one). A fix every second cost the server and the pages about
      // 7 % more CPU over seventeen journeys, for nothing the journeys check.
      SIMULATOR_INTERVAL_MS: '3000',
      // The demo's alert rules would raise toasts over every journey: the alert journeys
      // create their own.
      SEED_DEMO_ALERTS: 'false',
      // The push journey's stand-in subscriptions point at a local http endpoint.
      PUSH_INSECURE_ENDPOINTS: 'true',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await smtp.close();
  };
  try {
    await waitForHealth(stack.url, child, () => log);
    await waitForDemoWeek(stack.url, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

export default async function globalSetup(config: FullConfig) {
  if (!existsSync('dist/index.html'))
    throw new Error('Build ausente: rode `npm run build` antes dos testes e2e.');
  rmSync(E2E_TMP, { recursive: true, force: true });
  const plates = await startPlateLookup();
  const slots = Array.from({ length: config.workers }, (_, slot) => e2eStack(slot));
  const started = await Promise.allSettled(slots.map((stack) => startStack(stack, plates.url)));
  const stops = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stopAll = async () => {
    await Promise.all(stops.map((stop) => stop()));
    await plates.close();
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  return stopAll;
}
