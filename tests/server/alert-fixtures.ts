/**
 * What the alert suites share: a real Rastro server (its OsmAnd, Wialon IPS and flespi
 * listeners on free ports) on PGlite or a fresh PostgreSQL database (`databaseFor` in harness.ts), an API caller signed in
 * as someone, a Wialon IPS device on a real socket, and fix senders for each protocol.
 */
import { connect, type Socket } from 'node:net';
import { crcHex } from '../../server/ingest/wialon/parse';
import { createLogger } from '../../server/platform/log';
import { type RunningServer, startServer } from '../../server/start';
import type {
  Alert,
  AlertPage,
  AlertRule,
  AuthResponse,
  CustomerRowPage,
  Tracker,
  Vehicle,
} from '../../src/contract';
import type { FlespiStreamResult } from './api-types';
import { DEVICE_PASSWORD } from './devices';
import { type ApiResponse, jsonOf, parseBody, snapshotEnv, testConfig } from './harness';

export const FLESPI_SECRET = 'segredo-do-flespi-dos-testes-0123';

export async function startReal(env: Record<string, string>): Promise<RunningServer> {
  return startServer(
    testConfig({
      ...(await snapshotEnv(env)),
      OSMAND_PORT: '0',
      WIALON_IPS_PORT: '0',
      FLESPI_STREAM_SECRET: FLESPI_SECRET,
      SIMULATOR: 'off',
      // The periodic jobs are driven by the tests with their own clock.
      ALERT_TIMEOUT_CHECK_SECONDS: '3600',
      ALERT_MAIL_FLUSH_SECONDS: '3600',
      ...env,
    }),
    createLogger('silent'),
  );
}

export interface Caller {
  token: string;
  userId: string;
  /** `T` is what the test expects the body to be (see ApiResponse in harness.ts). */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
}

/** Signs in on a running server. */
export async function signIn(
  url: string,
  email: string,
  password = 'rastro-demo',
): Promise<Caller> {
  const res = await fetch(`${url}/registros/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
  const session = await jsonOf<AuthResponse>(res);
  return {
    token: session.accessToken,
    userId: session.user.id,
    async call<T>(method: string, route: string, body?: unknown): Promise<ApiResponse<T>> {
      const r = await fetch(`${url}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${session.accessToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: r.status, body: (await parseBody(r)) as T };
    },
  };
}

/** The demo customers by name. */
export async function customers(caller: Caller) {
  const { body } = await caller.call<CustomerRowPage>('GET', '/registros/client?limit=100');
  const find = (name: string) => {
    const found = body.clients.find((c) => c.name.startsWith(name));
    if (!found) throw new Error(`customer ${name} missing`);
    return found.id;
  };
  return {
    mother: find('Rastro Demonstração'),
    north: find('Transportes Norte'),
    south: find('Logística Sul'),
  };
}

/** A vehicle with its own tracker (provider Rastro), ready to send fixes. */
export async function vehicleWithTracker(
  caller: Caller,
  clientId: string,
  plate: string,
  identifier: string,
) {
  const vehicle = await caller.call<Vehicle>('POST', '/registros/vehicle', {
    clientId,
    name: `Veículo ${plate}`,
    plate,
    type: 'truck',
  });
  if (vehicle.status !== 201) throw new Error(`vehicle: ${JSON.stringify(vehicle.body)}`);
  // Its own device password, which the fixtures' OsmAnd and Wialon IPS devices send.
  const tracker = await caller.call<Tracker>('POST', '/registros/tracker', {
    clientId,
    identifier,
    provider: 'rastro',
    vehicleId: vehicle.body.id,
    devicePassword: DEVICE_PASSWORD,
  });
  if (tracker.status !== 201) throw new Error(`tracker: ${JSON.stringify(tracker.body)}`);
  return { vehicleId: vehicle.body.id, trackerId: tracker.body.id };
}

export async function createRule(caller: Caller, rule: Record<string, unknown>) {
  const res = await caller.call<AlertRule>('POST', '/registros/alert-rules', rule);
  if (res.status !== 201) throw new Error(`rule: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** Every alert of a vehicle, oldest fix first. */
export async function alertsOf(caller: Caller, vehicleId: string): Promise<Alert[]> {
  const res = await caller.call<AlertPage>(
    'GET',
    `/registros/alerts?vehicleId=${vehicleId}&limit=1000&sort=createdAt&order=asc`,
  );
  if (res.status !== 200) throw new Error(`alerts: ${JSON.stringify(res.body)}`);
  return res.body.items.sort((a, b) =>
    (a.fixTime ?? a.createdAt).localeCompare(b.fixTime ?? b.createdAt),
  );
}

/** One OsmAnd fix over HTTP; resolves with the status once it is committed. */
export async function osmand(port: number, params: Record<string, string | number | boolean>) {
  const query = new URLSearchParams([
    ['password', DEVICE_PASSWORD],
    ...Object.entries(params).map(([k, value]) => [k, String(value)]),
  ]);
  const res = await fetch(`http://127.0.0.1:${port}/?${query}`);
  await res.text();
  return res.status;
}

export const KNOTS = 1.852;

/** Seconds since the epoch, as OsmAnd sends a fix time. */
export const epoch = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * A tracker's drive, sent fix by fix to the OsmAnd port with the driver's tag read all along:
 * 15 min at `kmh` heading south (a fix every 30 s), then a hard stop in 1 s fixes (to 80, 60
 * and 40 % of the speed), so that a score sees a speeding episode and a harsh braking.
 */
export async function driveThenBrake(
  port: number,
  identifier: string,
  tag: string,
  from: number,
  kmh: number,
) {
  const step = (kmh / 3.6) * 30; // metres per fix
  let lat = -8.05;
  let at = from;
  const send = async (speed: number) => {
    const status = await osmand(port, {
      id: identifier,
      lat: lat.toFixed(6),
      lon: '-34.900000',
      speed: (speed / KNOTS).toFixed(3),
      ignition: true,
      driverUniqueId: tag,
      timestamp: epoch(new Date(at)),
    });
    if (status !== 200) throw new Error(`osmand: ${status}`);
  };
  for (let i = 0; i < 31; i += 1) {
    await send(kmh);
    lat -= step / 111_320;
    at += 30_000;
  }
  for (const speed of [kmh * 0.8, kmh * 0.6, kmh * 0.4]) {
    at += 1000;
    lat -= 5 / 111_320;
    await send(speed);
  }
}

/** flespi's HTTP stream: a batch of messages. */
export async function flespi(url: string, messages: Record<string, unknown>[]) {
  const res = await fetch(`${url}/tech-integracao/v1/flespi/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${FLESPI_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify(messages),
  });
  return { status: res.status, body: await jsonOf<FlespiStreamResult>(res) };
}

/** A Wialon IPS device on a real TCP connection. */
export class WialonDevice {
  lines: string[] = [];
  private buffered = '';
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let end = this.buffered.indexOf('\r\n'); end >= 0; end = this.buffered.indexOf('\r\n')) {
        this.lines.push(this.buffered.slice(0, end));
        this.buffered = this.buffered.slice(end + 2);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async login(port: number, identifier: string) {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
    const device = new WialonDevice(socket);
    const answer = await device.send(`#L#${identifier};${DEVICE_PASSWORD}`, /^#AL#/);
    if (answer !== '#AL#1') throw new Error(`wialon login: ${answer}`);
    return device;
  }

  async take(pattern: RegExp): Promise<string> {
    for (;;) {
      const at = this.lines.findIndex((line) => pattern.test(line));
      if (at >= 0) return this.lines.splice(at, 1)[0] as string;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async send(packet: string, answer: RegExp) {
    this.socket.write(`${packet}\r\n`);
    return this.take(answer);
  }

  close() {
    this.socket.destroy();
  }
}

/** DDMMYY;HHMMSS of a moment (UTC), as Wialon IPS writes it. */
export function wialonStamp(at: Date) {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(at.getUTCDate())}${p(at.getUTCMonth() + 1)}${p(at.getUTCFullYear() % 100)};${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}`;
}

/** Extended data (1.1) at Recife: speed, inputs, outputs and parameters. */
export function wialonData(
  at: Date,
  options: { speed?: number; inputs?: number; outputs?: number; params?: string } = {},
) {
  return `#D#${wialonStamp(at)};0803.2340;S;03452.8660;W;${options.speed ?? 0};0;10;9;1.0;${options.inputs ?? 0};${options.outputs ?? 0};NA;NA;${options.params ?? 'NA'}`;
}

export { crcHex };
