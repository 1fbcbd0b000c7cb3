/**
 * Devices for the long benches (bench/soak.ts, bench/failover.ts), in the bench's own process:
 * half over OsmAnd HTTP, half on Wialon IPS TCP connections (logged in again when one drops),
 * each sending one fix every `intervalMs`, spread over the interval as real ones are. Counts
 * what was sent and acknowledged (OsmAnd 200, Wialon `#AD#1`); with `record`, keeps every
 * acknowledgement (identifier and fix time) to be checked against the database afterwards.
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { BENCH_DEVICE_PASSWORD } from './device-password';

export interface Ack {
  identifier: string;
  fixTime: Date;
  /** When the acknowledgement arrived (ms since the epoch). */
  at: number;
}

export interface PacedLoad {
  counts: { sent: number; acked: number; refused: number };
  /** Every acknowledgement, when `record` is on. */
  acks: Ack[];
  stop(): void;
}

const p2 = (n: number) => String(n).padStart(2, '0');

function wialonAngle(value: number, digits: number, [pos, neg]: [string, string]) {
  const abs = Math.abs(value);
  const deg = Math.floor(abs);
  const minutes = ((abs - deg) * 60).toFixed(4).padStart(7, '0');
  return `${String(deg).padStart(digits, '0')}${minutes};${value < 0 ? neg : pos}`;
}

export function pacedLoad(options: {
  osmandPort: number;
  wialonPort: number;
  /** Tracker identifiers: the first half speak OsmAnd, the rest Wialon IPS. */
  identifiers: string[];
  intervalMs: number;
  record?: boolean;
}): PacedLoad {
  const { identifiers, intervalMs } = options;
  const counts = { sent: 0, acked: 0, refused: 0 };
  const acks: Ack[] = [];
  const ack = (identifier: string, fixTime: Date) => {
    counts.acked += 1;
    if (options.record) acks.push({ identifier, fixTime, at: Date.now() });
  };
  const count = identifiers.length;
  /** A slow circle around Recife, each device on its own (metres a second). */
  const place = (d: number, at: number) => {
    const turn = (at / 600_000 + d / count) * 2 * Math.PI;
    return { lat: -8.05 + 0.02 * Math.sin(turn), lon: -34.9 + 0.02 * Math.cos(turn) };
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const half = Math.floor(count / 2);
  let stopped = false;

  const osmand = (d: number, identifier: string) => {
    const fixTime = new Date(Math.floor(Date.now() / 1000) * 1000);
    const { lat, lon } = place(d, fixTime.getTime());
    counts.sent += 1;
    const req = request(
      {
        host: '127.0.0.1',
        port: options.osmandPort,
        agent,
        path: `/?password=${BENCH_DEVICE_PASSWORD}&id=${identifier}&lat=${lat.toFixed(6)}&lon=${lon.toFixed(6)}&timestamp=${fixTime.getTime() / 1000}&speed=20`,
      },
      (res) => {
        if (res.statusCode === 200) ack(identifier, fixTime);
        else counts.refused += 1;
        res.resume();
      },
    );
    req.on('error', () => {
      counts.refused += 1;
    });
    req.end();
  };

  /** A Wialon IPS device: its answers come in the order of its messages. */
  const wialon = (d: number, identifier: string) => {
    let socket: Socket | undefined;
    let loggedIn = false;
    let waiting: Date[] = [];
    let buffered = '';
    const open = () => {
      if (stopped) return;
      const s = connect(options.wialonPort, '127.0.0.1');
      socket = s;
      loggedIn = false;
      waiting = [];
      s.setEncoding('latin1');
      s.on('data', (text: string) => {
        buffered += text;
        for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (line.startsWith('#AL#')) loggedIn = line === '#AL#1';
          else if (line.startsWith('#AD#')) {
            const fixTime = waiting.shift();
            if (line === '#AD#1' && fixTime) ack(identifier, fixTime);
            else counts.refused += 1;
          }
        }
      });
      s.on('error', () => {});
      s.on('close', () => {
        counts.refused += waiting.length;
        waiting = [];
        socket = undefined;
        buffered = '';
        setTimeout(open, 1000);
      });
      s.write(`#L#${identifier};${BENCH_DEVICE_PASSWORD}\r\n`);
    };
    open();
    return {
      send() {
        if (!socket || !loggedIn) return;
        const at = new Date(Math.floor(Date.now() / 1000) * 1000);
        const { lat, lon } = place(d, at.getTime());
        const stamp = `${p2(at.getUTCDate())}${p2(at.getUTCMonth() + 1)}${p2(at.getUTCFullYear() % 100)};${p2(at.getUTCHours())}${p2(at.getUTCMinutes())}${p2(at.getUTCSeconds())}`;
        counts.sent += 1;
        waiting.push(at);
        socket.write(
          `#D#${stamp};${wialonAngle(lat, 2, ['N', 'S'])};${wialonAngle(lon, 3, ['E', 'W'])};40;90;10;9;1.0;0;0;NA;NA;ign:1:1\r\n`,
        );
      },
      stop() {
        socket?.destroy();
      },
    };
  };

  const wialonDevices = identifiers
    .slice(half)
    .map((identifier, i) => wialon(half + i, identifier));
  // Every 100 ms, the devices whose turn it is in the interval.
  const slots = Math.max(1, Math.floor(intervalMs / 100));
  const perSlot = Math.ceil(count / slots);
  const tick = setInterval(() => {
    const slot = Math.floor(Date.now() / 100) % slots;
    for (let d = slot * perSlot; d < Math.min(count, (slot + 1) * perSlot); d++) {
      const identifier = identifiers[d] as string;
      if (d < half) osmand(d, identifier);
      else wialonDevices[d - half]?.send();
    }
  }, 100);
  return {
    counts,
    acks,
    stop() {
      stopped = true;
      clearInterval(tick);
      for (const device of wialonDevices) device.stop();
      agent.destroy();
    },
  };
}
