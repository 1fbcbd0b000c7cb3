/**
 * `npm run simulate`: the demo fleet against a running Rastro (OSMAND_URL, WIALON_IPS_*, and
 * GT06_PORT, SUNTECH_PORT, TELTONIKA_PORT, QUECLINK_PORT on NATIVE_HOST, 'off' to leave one out).
 */
import { createLogger } from '../platform/log';
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
const nativeHost = process.env.NATIVE_HOST ?? 'localhost';
const NATIVE_DEFAULTS = { gt06: 5023, suntech: 5011, teltonika: 5027, queclink: 5004 };
const native = Object.fromEntries(
  Object.entries(NATIVE_DEFAULTS).flatMap(([protocol, port]) => {
    const given = process.env[`${protocol.toUpperCase()}_PORT`] ?? String(port);
    return given === 'off' ? [] : [[protocol, { host: nativeHost, port: Number(given) }]];
  }),
);
const stop = startSimulator({
  osmandUrl,
  wialon,
  native,
  devices,
  intervalMs,
  log: createLogger('info'),
});
process.once('SIGINT', () => {
  stop();
  process.exit(0);
});
