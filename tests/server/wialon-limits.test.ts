/**
 * Wialon IPS connections cannot grow the server without bound, over real sockets: a device
 * that floods without reading its answers is paused (the server's memory stays bounded,
 * measured in a server process of its own), queued lines of a closed connection are dropped,
 * a connection must log in within the deadline, one address holds only so many connections,
 * a tracker's own password answers a wrong guess exactly like an unknown identifier, and
 * password guessing is slowed while the right password is not.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GLOBAL_PASSWORD_KEY,
  LoginGuard,
  MAX_LOGIN_DELAY_MS,
  MAX_LOGIN_FAILURES,
} from '../../server/ingest/wialon/login-guard';
import { startWialon, type WialonListener } from '../../server/ingest/wialon/tcp';
import { rowsOf } from '../../server/platform/db/client';
import { createLogger } from '../../server/platform/log';
import type { Tracker } from '../../src/contract';
import type { TrackerPage } from './api-types';
import { as, backends, demoClients, present, useServer } from './harness';

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The next answer line of a socket. */
function nextLine(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      resolve(buffered.slice(0, end));
    };
    socket.on('data', onData);
  });
}

async function ask(socket: Socket, packet: string) {
  const answer = nextLine(socket);
  socket.write(`${packet}\r\n`);
  return answer;
}

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => {
    if (socket.destroyed) resolve();
    else socket.once('close', () => resolve());
  });

describe('Wialon IPS flood', () => {
  let child: ChildProcess;
  let port = 0;
  const rss = () =>
    new Promise<number>((resolve) => {
      child.once('message', (m) => resolve((m as { rss: number }).rss));
      child.send('rss');
    });

  beforeAll(async () => {
    child = fork(path.join(import.meta.dirname, 'fixtures/wialon-child.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m) => resolve((m as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
    });
  }, 60_000);
  afterAll(async () => {
    child.send('stop');
    await new Promise((resolve) => child.once('exit', resolve));
  });

  it('keeps the server memory bounded when a device sends without reading', async () => {
    const socket = await open(port);
    // A demo tracker of Wialon IPS, with its own password (server/demo/fleet.ts).
    expect(await ask(socket, '#L#demo-002;rastro-demo-002')).toBe('#AL#1');
    // Never read again: every answer stays unsent on the server's side.
    socket.pause();
    const before = await rss();
    const chunk = Buffer.from('#P#\r\n#SD#NA;NA;lixo\r\n'.repeat(4096));
    const limit = 256 * 1024 * 1024;
    let written = 0;
    // Write until the server stops taking bytes (it paused reading) or 256 MB went in.
    while (written < limit) {
      written += chunk.length;
      if (socket.write(chunk)) continue;
      const drained = await Promise.race([
        new Promise<boolean>((resolve) => socket.once('drain', () => resolve(true))),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000)),
      ]);
      if (!drained) break;
    }
    const after = await rss();
    expect(written).toBeLessThan(limit);
    expect(after - before).toBeLessThan(64 * 1024 * 1024);
    socket.destroy();
    // The server goes on serving other devices.
    const other = await open(port);
    expect(await ask(other, '#L#demo-004;rastro-demo-004')).toBe('#AL#1');
    expect(await ask(other, '#P#')).toBe('#AP#');
    other.destroy();
  }, 60_000);
});

describe.each(await backends())('Wialon IPS connection limits on %s', (backend) => {
  const server = useServer(backend);
  let listener: WialonListener;

  beforeAll(async () => {
    const s = server();
    listener = await startWialon({
      port: 0,
      host: '127.0.0.1',
      password: 'geral',
      pipeline: s.deps.pipeline,
      log: createLogger('silent'),
      loginTimeoutMs: 300,
      maxConnectionsPerAddress: 3,
      loginSlowdownMs: 20,
    });
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    // limite-1 has no password of its own: it is let in without one, under the global one.
    for (const [identifier, wialonPassword] of [
      ['limite-1', undefined],
      ['com-senha', 'propria-1'],
    ] as const) {
      const res = await admin.call<Tracker>('POST', '/registros/tracker', {
        clientId: north,
        identifier,
        provider: 'rastro',
        protocol: 'wialon_ips',
        ...(wialonPassword ? { wialonPassword } : { allowUnauthenticated: true }),
      });
      expect(res.status).toBe(201);
      expect(res.body.wialonPasswordSet).toBe(Boolean(wialonPassword));
    }
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('drops the queued lines of a connection that closed', async () => {
    const socket = await open(listener.port);
    expect(await ask(socket, '#L#limite-1;geral')).toBe('#AL#1');
    const base = Date.now() - 86_400_000;
    const pad = (n: number) => String(n).padStart(2, '0');
    const lines = Array.from({ length: 2000 }, (_, k) => {
      const d = new Date(base + k * 1000);
      const date = `${pad(d.getUTCDate())}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCFullYear() % 100)}`;
      const time = `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
      return `#SD#${date};${time};0803.2340;S;03452.8660;W;40;90;10;8\r\n`;
    });
    // The device sends its backlog and is gone (its unread answers make the close a reset).
    socket.write(lines.join(''), () => socket.destroy());
    await closed(socket);
    await expect.poll(() => listener.stats().connections, { timeout: 20_000 }).toBe(0);
    const [row] = rowsOf<{ n: number }>(
      await server().deps.database.db.execute(
        sql`select count(*)::int as n from positions p join trackers t on t.id = p.tracker_id
             where t.identifier = 'limite-1'`,
      ),
    );
    // Only what was in hand when the device left was stored, not the whole backlog.
    expect(row?.n).toBeLessThan(1000);
  });

  it('closes a connection that does not log in within the deadline', async () => {
    const silent = await open(listener.port);
    const device = await open(listener.port);
    expect(await ask(device, '#L#limite-1;geral')).toBe('#AL#1');
    await closed(silent);
    expect(silent.destroyed).toBe(true);
    // The device that logged in is still served.
    expect(await ask(device, '#P#')).toBe('#AP#');
    device.destroy();
  });

  it('counts only connections that have not logged in against the limit per address', async () => {
    // Three logged-in devices behind one address (a carrier's NAT) take no slot.
    const devices = [
      await open(listener.port),
      await open(listener.port),
      await open(listener.port),
    ];
    for (const s of devices) expect(await ask(s, '#L#limite-1;geral')).toBe('#AL#1');
    const fourth = await open(listener.port);
    expect(await ask(fourth, '#L#limite-1;geral')).toBe('#AL#1');
    devices.push(fourth);
    for (const s of devices) expect(await ask(s, '#P#')).toBe('#AP#');
    for (const s of devices) s.destroy();
    await Promise.all(devices.map(closed));
    await expect.poll(() => listener.stats().connections).toBe(0);
  });

  it('never lets idle sockets from one address lock out the devices behind it', async () => {
    const idle = await startWialon({
      port: 0,
      host: '127.0.0.1',
      password: 'geral',
      pipeline: server().deps.pipeline,
      log: createLogger('silent'),
      loginTimeoutMs: 60_000,
      loginGraceMs: 200,
      loginSlowdownMs: 20,
    });
    try {
      // 105 sockets that never log in, from the address every device of a carrier shares.
      const sockets = await Promise.all(Array.from({ length: 105 }, () => open(idle.port)));
      // Past 100 waiting within the grace, a new connection is refused...
      await expect.poll(() => idle.stats().connections).toBe(100);
      // ...and past the grace, a device pushes the oldest idle socket out and logs in.
      await expect
        .poll(async () => {
          const device = await open(idle.port);
          const answer = await Promise.race([
            ask(device, '#L#limite-1;geral'),
            closed(device).then(() => 'fechada'),
          ]);
          device.destroy();
          return answer;
        })
        .toBe('#AL#1');
      for (const s of sockets) s.destroy();
    } finally {
      await new Promise<void>((resolve) => idle.close(() => resolve()));
    }
  });

  it('answers a wrong tracker password exactly like an unknown identifier', async () => {
    // Each on a connection of its own: three refusals close one (below).
    const login = async (id: string, password: string) => {
      const d = await open(listener.port);
      try {
        return await ask(d, `#L#${id};${password}`);
      } finally {
        d.destroy();
        await expect.poll(() => listener.stats().connections).toBe(0);
      }
    };
    expect(await login('com-senha', 'propria-1')).toBe('#AL#1');
    // A wrong guess and an unknown identifier get the same answer, with or without the
    // global password: nothing tells which identifiers exist.
    for (const guess of ['errada', 'geral']) {
      const known = await login('com-senha', guess);
      const unknown = await login('nao-existe-123', guess);
      expect(known).toBe(unknown);
    }
    expect(await login('com-senha', 'errada')).toBe('#AL#01');
    expect(await login('com-senha', 'geral')).toBe('#AL#0');
    // A tracker without its own password follows the global rule.
    expect(await login('limite-1', 'geral')).toBe('#AL#1');
    expect(await login('limite-1', 'outra')).toBe('#AL#01');

    const admin = await as(server(), 'admin@rastro.demo');
    const list = await admin.call<TrackerPage>(
      'GET',
      '/registros/tracker?search=com-senha&limit=5',
    );
    const tracker = present(
      list.body.trackers.find((t) => t.identifier === 'com-senha'),
      'tracker com-senha',
    );
    expect(tracker.wialonPasswordSet).toBe(true);
    expect(JSON.stringify(list.body)).not.toContain('propria-1');
    const cleared = await admin.call<Tracker>('PATCH', `/registros/tracker/${tracker.id}`, {
      wialonPassword: null,
    });
    expect(cleared.body.wialonPasswordSet).toBe(false);
    const bad = await admin.call('PATCH', `/registros/tracker/${tracker.id}`, {
      wialonPassword: 'com;ponto',
    });
    expect(bad.status).toBe(400);
  });
});

describe('Wialon IPS login guard', () => {
  it('answers the refusals of an identifier one at a time, each later than the one before', () => {
    const guard = new LoginGuard(500);
    const t = 1_000_000;
    expect(guard.refusal(['a'], t)).toBe(0);
    expect(guard.refusal(['a'], t)).toBe(500);
    // Two more at once (two connections): each waits for the answer before it too.
    expect(guard.refusal(['a'], t)).toBe(500 + 1000);
    expect(guard.refusal(['a'], t)).toBe(500 + 1000 + 2000);
    expect(guard.refusal(['a'], t)).toBe(500 + 1000 + 2000 + 4000);
    expect(guard.refusal(['a'], t)).toBe(7500 + MAX_LOGIN_DELAY_MS);
    // The answers queued reach past MAX_LOGIN_DELAY_MS: the next one is not answered.
    expect(guard.refusal(['a'], t)).toBeUndefined();
    // Later, once the queue has gone, the waits go on from where they were, at most 8 s.
    expect(guard.refusal(['a'], t + 20_000)).toBe(MAX_LOGIN_DELAY_MS);
    // Another identifier, known or not, starts afresh: its first refusal waits nothing.
    expect(guard.refusal(['b'], t)).toBe(0);
    // Forgotten 15 minutes after the last answer (given at t + 28 s), not before.
    const other = new LoginGuard(500);
    other.refusal(['a'], t);
    expect(other.refusal(['a'], t)).toBe(500);
    expect(other.refusal(['a'], t + 500 + 15 * 60_000 - 1)).toBe(1000);
    expect(guard.refusal(['a'], t + 28_000 + 15 * 60_000)).toBe(0);
  });

  it('counts a wrong global password under every identifier at once', () => {
    const guard = new LoginGuard(500);
    const t = 1_000_000;
    // A new identifier each time: the global password's count still grows.
    expect(guard.refusal(['x1', GLOBAL_PASSWORD_KEY], t)).toBe(0);
    expect(guard.refusal(['x2', GLOBAL_PASSWORD_KEY], t)).toBe(500);
    expect(guard.refusal(['x3', GLOBAL_PASSWORD_KEY], t)).toBe(1500);
  });

  it('keeps a guessed identifier when new identifiers flood it', () => {
    const guard = new LoginGuard(500);
    const t = 1_000_000;
    for (let i = 0; i < 4; i += 1) guard.refusal(['alvo'], t + i * 10_000);
    for (let i = 0; i < 12_000; i += 1) guard.refusal([`lixo-${i}`], t + 40_000);
    // Its fifth refusal waits 4 s, as if the flood had not been (forgotten, it would be 0).
    expect(guard.refusal(['alvo'], t + 40_000)).toBe(4000);
  });
});

describe.each(await backends())('Wialon IPS login guessing on %s', (backend) => {
  const server = useServer(backend);
  let listener: WialonListener;

  beforeAll(async () => {
    // No global password: the refusals here are counted per identifier only.
    listener = await startWialon({
      port: 0,
      host: '127.0.0.1',
      pipeline: server().deps.pipeline,
      log: createLogger('silent'),
      loginSlowdownMs: 3000,
    });
    const { north } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    await admin.call('POST', '/registros/tracker', {
      clientId: north,
      identifier: 'adivinha-1',
      provider: 'rastro',
      wialonPassword: 'propria-9',
    });
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('closes a connection after its third refused login, and never delays the right password', async () => {
    expect(MAX_LOGIN_FAILURES).toBe(3);
    // Three guesses, each for another identifier (no wait): the third answer is the last.
    const d = await open(listener.port);
    for (const id of ['adivinha-1', 'outro-1', 'outro-2'])
      expect(await ask(d, `#L#${id};errada`)).toBe('#AL#0');
    await closed(d);
    // The second refusal of 'adivinha-1' waits 3 s; the device's own login beside it does not.
    const guesser = await open(listener.port);
    const device = await open(listener.port);
    const guess = ask(guesser, '#L#adivinha-1;errada').then((answer) => ({ who: 'guess', answer }));
    const login = ask(device, '#L#adivinha-1;propria-9').then((answer) => ({
      who: 'device',
      answer,
    }));
    expect(await Promise.race([guess, login])).toEqual({ who: 'device', answer: '#AL#1' });
    expect(await guess).toEqual({ who: 'guess', answer: '#AL#0' });
    expect(await ask(device, '#P#')).toBe('#AP#');
    guesser.destroy();
    device.destroy();
  }, 20_000);

  it('handles nothing sent after the third refusal, even in the same write', async () => {
    const d = await open(listener.port);
    const answers: string[] = [];
    let buffered = '';
    d.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        answers.push(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
      }
    });
    const ids = ['lote-1', 'lote-2', 'lote-3'];
    d.write(`${ids.map((id) => `#L#${id};errada\r\n`).join('')}#L#adivinha-1;propria-9\r\n`);
    await closed(d);
    expect(answers).toEqual(['#AL#0', '#AL#0', '#AL#0']);
  }, 20_000);
});
