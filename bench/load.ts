/**
 * The ingest bench's load generator, run as a child process of the bench (bench/ingest.ts) so
 * that the server's figure is the server's: it does not share the server's event loop.
 *
 * - `wialon`: DEVICES TCP connections, each logged in (Wialon IPS 1.1) and sending `#D#`
 *   data packets one at a time: the next only after the `#AD#1` of the one before (a device
 *   waits for its acknowledgement, which the server writes after the commit).
 * - `osmand`: CONCURRENCY HTTP requests in flight at once (keep-alive), each a fix of the next
 *   device in turn.
 *
 * Every device's fixes move forward a second at a time from an hour ago, driving slowly; every
 * 4th fix turns the ignition over and 2 of every 8 are above 80 km/h, so the alert engine has
 * edges to raise. Runs SECONDS and reports `{ sent, acked, ms, cpuMs }` (its own CPU time) to
 * the parent over IPC.
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { type NativeReport, SPEAKERS } from '../server/demo/simulator-native';
import type { NativeProtocol } from '../server/ingest/native/codecs';
import { BENCH_DEVICE_PASSWORD } from './device-password';

interface Job {
  protocol: 'wialon' | 'osmand' | NativeProtocol;
  /** Fixes per packet, for the protocols that carry several (Teltonika). */
  records?: number;
  port: number;
  prefix: string;
  devices: number;
  concurrency: number;
  seconds: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const start = Date.now() - 3600_000;
const p2 = (n: number) => String(n).padStart(2, '0');

/** The n-th fix of device d: time, place (degrees), speed (km/h), ignition. */
function fixOf(d: number, n: number) {
  const at = new Date(start + n * 1000);
  const lat = -8 - (d % 100) / 100 - n * 0.00001;
  const lon = -34.9 - Math.floor(d / 100) / 100;
  return { at, lat, lon, kmh: n % 8 >= 6 ? 95 : 40, ignition: Math.floor(n / 4) % 2 === 0 };
}

/** Degrees as Wialon's DDMM.MMMM (latitude) or DDDMM.MMMM (longitude), with the hemisphere. */
function wialonAngle(value: number, digits: number, [pos, neg]: [string, string]) {
  const abs = Math.abs(value);
  const deg = Math.floor(abs);
  const minutes = ((abs - deg) * 60).toFixed(4).padStart(7, '0');
  return `${String(deg).padStart(digits, '0')}${minutes};${value < 0 ? neg : pos}`;
}

function wialonPacket(d: number, n: number) {
  const { at, lat, lon, kmh, ignition } = fixOf(d, n);
  const stamp = `${p2(at.getUTCDate())}${p2(at.getUTCMonth() + 1)}${p2(at.getUTCFullYear() % 100)};${p2(at.getUTCHours())}${p2(at.getUTCMinutes())}${p2(at.getUTCSeconds())}`;
  return `#D#${stamp};${wialonAngle(lat, 2, ['N', 'S'])};${wialonAngle(lon, 3, ['E', 'W'])};${kmh};90;10;9;1.0;0;0;NA;NA;ign:1:${ignition ? 1 : 0}\r\n`;
}

/** A Wialon IPS device logged in on its own connection: `send` answers the packet's reply. */
async function wialonDevice(d: number) {
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(job.port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  socket.setNoDelay(true);
  socket.setEncoding('latin1');
  let buffered = '';
  let wake: ((line: string) => void) | undefined;
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      wake?.(line);
    }
  });
  const send = (packet: string) =>
    new Promise<string>((resolve) => {
      wake = resolve;
      socket.write(packet);
    });
  if ((await send(`#L#${job.prefix}${d};${BENCH_DEVICE_PASSWORD}\r\n`)) !== '#AL#1')
    throw new Error('login refused');
  return { d, send, close: () => socket.destroy() };
}

async function wialon(counts: { sent: number; acked: number }, started: () => void) {
  const devices: Awaited<ReturnType<typeof wialonDevice>>[] = [];
  for (let d = 0; d < job.devices; d += 100)
    devices.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(100, job.devices - d) }, (_, k) => wialonDevice(d + k)),
      )),
    );
  const t0 = Date.now();
  started();
  process.send?.({ go: true });
  const until = t0 + job.seconds * 1000;
  await Promise.all(
    devices.map(async (device) => {
      for (let n = 0; Date.now() < until; n += 1) {
        counts.sent += 1;
        if ((await device.send(wialonPacket(device.d, n))) === '#AD#1') counts.acked += 1;
      }
      device.close();
    }),
  );
  return Date.now() - t0;
}

async function osmand(until: number, counts: { sent: number; acked: number }) {
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  const next = new Array<number>(job.devices).fill(0);
  let turn = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const d = turn++ % job.devices;
      const n = next[d] ?? 0;
      next[d] = n + 1;
      const { at, lat, lon, kmh, ignition } = fixOf(d, n);
      const path = `/?password=${BENCH_DEVICE_PASSWORD}&id=${job.prefix}${d}&lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}&timestamp=${Math.floor(at.getTime() / 1000)}&speed=${(kmh / 1.852).toFixed(1)}&ignition=${ignition}`;
      counts.sent += 1;
      request({ host: '127.0.0.1', port: job.port, path, agent }, (res) => {
        if (res.statusCode === 200) counts.acked += 1;
        res.resume();
        res.on('end', resolve);
      })
        .on('error', reject)
        .end();
    });
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (Date.now() < until) await one();
    }),
  );
  agent.destroy();
}

/** The n-th report of device d as a makers' device sends it. */
function nativeReport(d: number, n: number): NativeReport {
  const { at, lat, lon, kmh, ignition } = fixOf(d, n);
  return {
    fixTime: at,
    latitude: lat,
    longitude: lon,
    speed: kmh,
    course: 90,
    ignition,
    battery: 80,
  };
}

/**
 * A device of a protocol that answers no position over TCP (GT06, Suntech) sends one every
 * this many ms: 500 of them offer 20,000 positions a second, more than the server stores, and
 * their fix times (a second apart) stay behind the server's clock for the whole run.
 */
const UNANSWERED_EVERY_MS = 25;

/**
 * A makers' device on its own connection: its login, then one packet in flight (the next
 * after the server's answer), or, for a protocol that answers no position (GT06, Suntech),
 * one every UNANSWERED_EVERY_MS.
 */
async function nativeDevice(protocol: NativeProtocol, d: number) {
  const speaker = SPEAKERS[protocol];
  if (!speaker) throw new Error(`no device for ${protocol}`);
  const imei = `${job.prefix}${String(d).padStart(15 - job.prefix.length, '0')}`;
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(job.port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  socket.setNoDelay(true);
  let wake: (() => void) | undefined;
  socket.on('data', () => {
    const woken = wake;
    wake = undefined;
    woken?.();
  });
  const answered = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  const hello = speaker.hello(imei);
  if (hello) {
    const login = answered();
    socket.write(hello);
    await login;
  }
  const records = Math.max(1, job.records ?? 1);
  const send = async (n: number) => {
    const reports = Array.from({ length: records }, (_, k) => nativeReport(d, n * records + k));
    const bytes = speaker.batch
      ? speaker.batch(imei, reports)
      : speaker.report(imei, reports[0] as NativeReport);
    if (speaker.acksPositions) {
      const answer = answered();
      socket.write(bytes);
      await answer;
    } else {
      socket.write(bytes);
      await new Promise((resolve) => setTimeout(resolve, UNANSWERED_EVERY_MS));
    }
    return records;
  };
  return { send, close: () => socket.destroy() };
}

async function native(
  protocol: NativeProtocol,
  counts: { sent: number; acked: number },
  started: () => void,
) {
  const devices: Awaited<ReturnType<typeof nativeDevice>>[] = [];
  for (let d = 0; d < job.devices; d += 100)
    devices.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(100, job.devices - d) }, (_, k) =>
          nativeDevice(protocol, d + k),
        ),
      )),
    );
  const t0 = Date.now();
  started();
  process.send?.({ go: true });
  const until = t0 + job.seconds * 1000;
  await Promise.all(
    devices.map(async (device) => {
      for (let n = 0; Date.now() < until; n += 1) {
        const sent = await device.send(n);
        counts.sent += sent;
        counts.acked += sent;
      }
      device.close();
    }),
  );
  return Date.now() - t0;
}

const counts = { sent: 0, acked: 0 };
let ms: number;
// This process's own CPU while the devices send (its share of the machine's two cores).
let cpu = process.cpuUsage();
if (job.protocol === 'wialon')
  ms = await wialon(counts, () => {
    cpu = process.cpuUsage();
  });
else if (job.protocol !== 'osmand')
  ms = await native(job.protocol, counts, () => {
    cpu = process.cpuUsage();
  });
else {
  const t0 = Date.now();
  cpu = process.cpuUsage();
  process.send?.({ go: true });
  await osmand(t0 + job.seconds * 1000, counts);
  ms = Date.now() - t0;
}
const used = process.cpuUsage(cpu);
process.send?.({ ...counts, ms, cpuMs: (used.user + used.system) / 1000 });
process.exit(0);
