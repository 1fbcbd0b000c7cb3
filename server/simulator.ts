/**
 * The demo's moving fleet: drives trackers along loops around Recife through the real
 * listeners — the even devices over OsmAnd HTTP as a phone running Traccar Client would, the
 * odd ones over Wialon IPS 2.0 TCP as a vehicle tracker would — with ignition on and off,
 * stops at the ends of each loop and the occasional stretch of speeding, so a newcomer sees
 * positions arrive. `npm start` runs it for the demo (SIMULATOR=off turns it off);
 * `npm run simulate` runs it against any server (OSMAND_URL, WIALON_IPS_HOST/PORT,
 * SIMULATOR_DEVICES).
 */
import { connect, type Socket } from 'node:net';
import { crcHex } from './ingest/wialon';
import type { Logger } from './log';

const CENTER = { latitude: -8.0539, longitude: -34.8811 };
const KNOTS = 1.852;

export interface SimulatedDevice {
  identifier: string;
  /** Loop radius in km and where on it the device starts. */
  radiusKm: number;
  phase: number;
}

export function demoDevices(count: number): SimulatedDevice[] {
  return Array.from({ length: count }, (_, i) => ({
    identifier: `demo-${String(i + 1).padStart(3, '0')}`,
    radiusKm: 1.5 + (i % 5) * 1.2,
    phase: (i * 2 * Math.PI) / Math.max(count, 1),
  }));
}

/** Where a device is at step n: position on its loop, speed (km/h), course and ignition. */
export function stepOf(device: SimulatedDevice, n: number) {
  const cycle = n % 40;
  const stopped = cycle >= 34; // a stop of 6 steps every 40
  const speeding = cycle >= 20 && cycle < 24; // a stretch over 100 km/h
  const speed = stopped ? 0 : speeding ? 105 + (n % 7) : 35 + ((n * 7) % 30);
  const angle = device.phase + (n * 0.05 * 2) / device.radiusKm;
  const kmPerDegree = 111.32;
  const latitude = CENTER.latitude + (device.radiusKm / kmPerDegree) * Math.sin(angle);
  const longitude =
    CENTER.longitude +
    (device.radiusKm / (kmPerDegree * Math.cos((CENTER.latitude * Math.PI) / 180))) *
      Math.cos(angle);
  const course = (((((angle + Math.PI / 2) * 180) / Math.PI) % 360) + 360) % 360;
  return { latitude, longitude, speed, course, ignition: !(stopped && cycle >= 36) };
}

type Step = ReturnType<typeof stepOf>;

/** DDMM.MMMM;H for Wialon IPS. */
function wialonCoordinate(value: number, positive: string, negative: string, width: number) {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutes = (abs - degrees) * 60;
  const text = `${String(degrees).padStart(width, '0')}${minutes.toFixed(4).padStart(7, '0')}`;
  return `${text};${value < 0 ? negative : positive}`;
}

/** One extended-data packet of Wialon IPS 2.0 (with its CRC) for a step at a moment. */
export function wialonPacket(step: Step, at: Date, battery: number): string {
  const p = (x: number) => String(x).padStart(2, '0');
  const date = `${p(at.getUTCDate())}${p(at.getUTCMonth() + 1)}${p(at.getUTCFullYear() % 100)}`;
  const time = `${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}`;
  const body = [
    date,
    time,
    wialonCoordinate(step.latitude, 'N', 'S', 2),
    wialonCoordinate(step.longitude, 'E', 'W', 3),
    step.speed.toFixed(0),
    step.course.toFixed(0),
    '10',
    '9',
    '0.9',
    step.ignition ? '1' : '0',
    '0',
    'NA',
    'NA',
    `ign:1:${step.ignition ? 1 : 0},batt:2:${battery}`,
  ].join(';');
  return `#D#${body};${crcHex(`${body};`)}\r\n`;
}

/** A tracker's TCP connection: logs in once, reconnects on the next tick when it drops. */
class WialonLink {
  private socket: Socket | undefined;

  constructor(
    private readonly target: { host: string; port: number },
    private readonly identifier: string,
  ) {}

  send(packet: string) {
    if (!this.socket || this.socket.destroyed) {
      const socket = connect(this.target.port, this.target.host);
      socket.on('error', () => socket.destroy());
      socket.on('data', () => {}); // answers are read and dropped
      const login = `2.0;${this.identifier};NA;`;
      socket.write(`#L#${login}${crcHex(login)}\r\n`);
      this.socket = socket;
    }
    this.socket.write(packet);
  }

  close() {
    this.socket?.destroy();
  }
}

export function startSimulator(options: {
  osmandUrl: string;
  /** Where the odd devices send Wialon IPS; without it every device uses OsmAnd. */
  wialon?: { host: string; port: number } | undefined;
  devices: SimulatedDevice[];
  intervalMs: number;
  log: Logger;
}): () => void {
  let n = 0;
  let running = true;
  const { wialon } = options;
  const links = new Map(
    wialon
      ? options.devices
          .filter((_, i) => i % 2 === 1)
          .map((device) => [device.identifier, new WialonLink(wialon, device.identifier)])
      : [],
  );
  const tick = async () => {
    n += 1;
    const now = Math.floor(Date.now() / 1000);
    await Promise.all(
      options.devices.map(async (device) => {
        const s = stepOf(device, n);
        const link = links.get(device.identifier);
        if (link) {
          link.send(wialonPacket(s, new Date(now * 1000), 80 + (n % 20)));
          return;
        }
        const query = new URLSearchParams({
          id: device.identifier,
          lat: s.latitude.toFixed(6),
          lon: s.longitude.toFixed(6),
          timestamp: String(now),
          speed: (s.speed / KNOTS).toFixed(1),
          bearing: s.course.toFixed(0),
          ignition: String(s.ignition),
          batt: String(80 + (n % 20)),
        });
        try {
          await fetch(`${options.osmandUrl}/?${query}`, { signal: AbortSignal.timeout(5000) });
        } catch (err) {
          if (running)
            options.log.debug('simulator: send failed', { device: device.identifier, err });
        }
      }),
    );
  };
  const timer = setInterval(() => void tick(), options.intervalMs);
  void tick();
  options.log.info('simulador ligado', {
    devices: options.devices.length,
    intervalMs: options.intervalMs,
  });
  return () => {
    running = false;
    clearInterval(timer);
    for (const link of links.values()) link.close();
  };
}
