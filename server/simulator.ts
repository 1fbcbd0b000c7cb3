/**
 * The demo's moving fleet: drives trackers along loops around Recife through the real
 * OsmAnd listener, as a phone running Traccar Client would — with ignition on and off, stops
 * at the ends of each loop and the occasional stretch of speeding — so a newcomer sees
 * positions arrive. `npm start` runs it for the demo (SIMULATOR=off turns it off);
 * `npm run simulate` runs it against any server (OSMAND_URL, SIMULATOR_DEVICES).
 */
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

export function startSimulator(options: {
  osmandUrl: string;
  devices: SimulatedDevice[];
  intervalMs: number;
  log: Logger;
}): () => void {
  let n = 0;
  let running = true;
  const tick = async () => {
    n += 1;
    const now = Math.floor(Date.now() / 1000);
    await Promise.all(
      options.devices.map(async (device) => {
        const s = stepOf(device, n);
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
  };
}
