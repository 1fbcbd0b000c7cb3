/** `npm run simulate`: the demo fleet against a running Rastro (OSMAND_URL, WIALON_IPS_*). */
import { createLogger } from './log';
import { demoDevices, startSimulator } from './simulator';

const osmandUrl = process.env.OSMAND_URL ?? 'http://localhost:5055';
const count = process.env.SIMULATOR_DEVICES;
const devices = demoDevices(count ? Number(count) : undefined);
const intervalMs = Number(process.env.SIMULATOR_INTERVAL_MS ?? 10_000);
const wialonPort = process.env.WIALON_IPS_PORT ?? '5039';
const wialon =
  wialonPort === 'off'
    ? undefined
    : { host: process.env.WIALON_IPS_HOST ?? 'localhost', port: Number(wialonPort) };
const stop = startSimulator({
  osmandUrl,
  wialon,
  devices,
  intervalMs,
  log: createLogger('info'),
});
process.once('SIGINT', () => {
  stop();
  process.exit(0);
});
