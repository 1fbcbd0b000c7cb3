/**
 * The demo's moving fleet: drives the demo trackers (server/demo/fleet.ts) along their own
 * routes around Recife through the real listeners — the even devices over OsmAnd HTTP as a
 * phone running Traccar Client would, the odd ones over Wialon IPS 2.0 TCP as a vehicle
 * tracker would. Each vehicle keeps its own speed and schedule: stops with the engine on or
 * off, stretches of speeding, parked ones that report rarely (as trackers do with the
 * ignition off), one that lost its signal an hour ago, drivers identified by RFID.
 * `npm start` runs it for the demo (SIMULATOR=off turns it off); `npm run simulate` runs it
 * against any server (OSMAND_URL, WIALON_IPS_HOST/PORT, SIMULATOR_DEVICES).
 */
import { connect, type Socket } from 'node:net';
import type { NativeProtocol } from '../ingest/native/codecs';
import { distanceKm as between } from '../ingest/screen';
import { crcHex } from '../ingest/wialon/parse';
import type { Logger } from '../platform/log';
import {
  DEMO_FLEET,
  type DemoProtocol,
  demoDevicePassword,
  type Leg,
  type Place,
  type Plan,
  place,
} from './fleet';
import { NativeLink, SPEAKERS } from './simulator-native';

const KNOTS = 1.852;
/** Parked with the engine off, a tracker reports once in this many ticks (5 min at 10 s). */
const PARKED_EVERY = 30;
/** Idling, every few ticks. */
const IDLE_EVERY = 3;

export interface SimulatedDevice {
  identifier: string;
  /** The protocol it speaks (its demo tracker's; copies past the demo's forty alternate). */
  protocol: DemoProtocol;
  /** Its device password (sent on every OsmAnd report and at the Wialon IPS login). */
  password: string;
  plan: Plan;
  /** The tracker's battery (%) at the start. */
  battery: number;
  driverRfid?: string | undefined;
  /** The size of the tank its fuel sensor reads in litres, when it has one. */
  fuelTank?: number | undefined;
}

/** The demo's fuel theft, every three hours of simulation. */
const FUEL_CYCLE_S = 3 * 3600;
const STOLEN_LITRES = 45;

/**
 * The litres a demo fuel sensor reads `seconds` into the simulation: a full tank, 45 L stolen
 * ten minutes in (FUEL_DROP fires at the next report that confirms it), then refuelled at
 * 100 minutes, so that both a theft and a refuel with the engine off show every cycle.
 */
export function fuelAt(tank: number, seconds: number): number {
  const t = seconds % FUEL_CYCLE_S;
  const sloshing = ((Math.floor(seconds / 300) % 3) - 1) * 0.4;
  return Math.round((t >= 600 && t < 6000 ? tank - STOLEN_LITRES : tank) * 10 + sloshing * 10) / 10;
}

/** The demo's devices; past the forty of the demo, copies of them start elsewhere on their loop. */
export function demoDevices(count = DEMO_FLEET.length): SimulatedDevice[] {
  return Array.from({ length: count }, (_, i) => {
    const base = DEMO_FLEET[i % DEMO_FLEET.length];
    if (!base) throw new Error('demo fleet is empty');
    const lap = Math.floor(i / DEMO_FLEET.length);
    const plan: Plan =
      base.plan.kind === 'drive' && lap > 0
        ? { ...base.plan, phase: (base.plan.phase + lap * 0.37) % 1 }
        : base.plan;
    const identifier = lap === 0 ? base.identifier : `demo-${String(i + 1).padStart(3, '0')}`;
    return {
      identifier,
      protocol: lap === 0 ? base.protocol : i % 2 === 0 ? 'osmand' : 'wialon_ips',
      password: demoDevicePassword(identifier),
      plan,
      battery: base.battery,
      driverRfid: base.driver?.rfid,
      fuelTank: lap === 0 ? base.fuelTank : undefined,
    };
  });
}

export interface Step {
  latitude: number;
  longitude: number;
  /** km/h */
  speed: number;
  /** Degrees from north. */
  course: number;
  ignition: boolean;
}

/** Great-circle distance between two places, as the ingest filters measure it. */
export function distanceKm(a: Place, b: Place): number {
  return between({ latitude: a[0], longitude: a[1] }, { latitude: b[0], longitude: b[1] });
}

export function bearing(a: Place, b: Place): number {
  const rad = Math.PI / 180;
  const y = Math.sin((b[1] - a[1]) * rad) * Math.cos(b[0] * rad);
  const x =
    Math.cos(a[0] * rad) * Math.sin(b[0] * rad) -
    Math.sin(a[0] * rad) * Math.cos(b[0] * rad) * Math.cos((b[1] - a[1]) * rad);
  return (((Math.atan2(y, x) / rad) % 360) + 360) % 360;
}

interface Segment {
  from: Place;
  to: Place;
  leg: Leg;
  travelS: number;
  dwellS: number;
  course: number;
}

const routes = new WeakMap<Leg[], { segments: Segment[]; cycleS: number }>();

/** A loop of legs as timed segments: each leg starts where the previous one ended. */
function routeOf(legs: Leg[]) {
  const known = routes.get(legs);
  if (known) return known;
  const segments = legs.map((leg, i) => {
    const previous = legs[(i - 1 + legs.length) % legs.length] ?? leg;
    const from = place(previous.to);
    const to = place(leg.to);
    return {
      from,
      to,
      leg,
      travelS: (distanceKm(from, to) / leg.kmh) * 3600,
      dwellS: leg.dwellS ?? 0,
      course: bearing(from, to),
    };
  });
  const route = { segments, cycleS: segments.reduce((s, x) => s + x.travelS + x.dwellS, 0) };
  routes.set(legs, route);
  return route;
}

/**
 * A device's own spot, 20–55 m from the shared places: vehicles parked at one depot stand
 * side by side (as in a real yard) instead of on one point the map could not tell apart.
 */
export function spotOf(identifier: string): [number, number] {
  let hash = 0;
  for (const char of identifier) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const angle = (hash % 360) * (Math.PI / 180);
  const degrees = (20 + (hash % 36)) / 111_320;
  return [Math.sin(angle) * degrees, Math.cos(angle) * degrees];
}

/** Where a device is `seconds` after the simulation started, how fast and with what ignition. */
export function stepOf(device: SimulatedDevice, seconds: number): Step {
  const [dLat, dLon] = spotOf(device.identifier);
  const step = routeStep(device.plan, seconds);
  return { ...step, latitude: step.latitude + dLat, longitude: step.longitude + dLon };
}

function routeStep(plan: Plan, seconds: number): Step {
  if (plan.kind !== 'drive') {
    const [latitude, longitude] = place(plan.at);
    return {
      latitude,
      longitude,
      speed: 0,
      course: 0,
      ignition: plan.kind === 'parked' && plan.ignition,
    };
  }
  const { segments, cycleS } = routeOf(plan.legs);
  let t = (((seconds + plan.phase * cycleS) % cycleS) + cycleS) % cycleS;
  for (const s of segments) {
    if (t < s.travelS) {
      const f = t / s.travelS;
      // Traffic: the speed breathes around the leg's cruise speed.
      const wobble = 1 + 0.08 * Math.sin(seconds / 23 + s.course);
      return {
        latitude: s.from[0] + (s.to[0] - s.from[0]) * f,
        longitude: s.from[1] + (s.to[1] - s.from[1]) * f,
        speed: Math.round(s.leg.kmh * wobble),
        course: Math.round(s.course),
        ignition: true,
      };
    }
    t -= s.travelS;
    if (t < s.dwellS) {
      return {
        latitude: s.to[0],
        longitude: s.to[1],
        speed: 0,
        course: Math.round(s.course),
        ignition: !s.leg.engineOff,
      };
    }
    t -= s.dwellS;
  }
  const last = segments.at(-1);
  return {
    latitude: last?.to[0] ?? 0,
    longitude: last?.to[1] ?? 0,
    speed: 0,
    course: 0,
    ignition: true,
  };
}

/**
 * The fix a device sends on tick `tick` (1, 2, …) at `now`, or nothing: moving trackers
 * report every tick, idling ones every few, parked ones rarely; a silent one once, old.
 */
export function reportOf(
  device: SimulatedDevice,
  tick: number,
  now: number,
  intervalMs: number,
): { step: Step; at: Date; battery: number; fuel?: number | undefined } | undefined {
  const { plan } = device;
  if (plan.kind === 'silent') {
    if (tick !== 1) return undefined;
    return {
      step: stepOf(device, 0),
      at: new Date(now - plan.minutesAgo * 60_000),
      battery: device.battery,
    };
  }
  const every = plan.kind === 'parked' ? (plan.ignition ? IDLE_EVERY : PARKED_EVERY) : 1;
  if ((tick - 1) % every !== 0) return undefined;
  const seconds = (tick * intervalMs) / 1000;
  // The battery drains slowly and recharges: each tracker its own level.
  const battery = Math.max(5, device.battery - Math.floor((seconds / 600) % 12));
  const fuel = device.fuelTank ? fuelAt(device.fuelTank, seconds) : undefined;
  return { step: stepOf(device, seconds), at: new Date(now), battery, fuel };
}

/** DDMM.MMMM;H for Wialon IPS. */
function wialonCoordinate(value: number, positive: string, negative: string, width: number) {
  const abs = Math.abs(value);
  const degrees = Math.floor(abs);
  const minutes = (abs - degrees) * 60;
  const text = `${String(degrees).padStart(width, '0')}${minutes.toFixed(4).padStart(7, '0')}`;
  return `${text};${value < 0 ? negative : positive}`;
}

/** One extended-data packet of Wialon IPS 2.0 (with its CRC) for a step at a moment. */
export function wialonPacket(
  step: Step,
  at: Date,
  battery: number,
  driverRfid?: string,
  fuel?: number,
): string {
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
    driverRfid ?? 'NA',
    `ign:1:${step.ignition ? 1 : 0},batt:2:${battery}${
      fuel === undefined ? '' : `,fuel_liters:2:${fuel.toFixed(1)}`
    }`,
  ].join(';');
  return `#D#${body};${crcHex(`${body};`)}\r\n`;
}

/**
 * The OsmAnd query (as Traccar Client sends it) for a step at a moment, with the device's
 * password as the server URL given to the app carries it.
 */
export function osmandQuery(
  identifier: string,
  step: Step,
  at: Date,
  battery: number,
  driverRfid?: string,
  password?: string,
  fuel?: number,
): URLSearchParams {
  const query = new URLSearchParams({
    ...(password ? { password } : {}),
    id: identifier,
    lat: step.latitude.toFixed(6),
    lon: step.longitude.toFixed(6),
    timestamp: String(Math.floor(at.getTime() / 1000)),
    speed: (step.speed / KNOTS).toFixed(1),
    bearing: step.course.toFixed(0),
    ignition: String(step.ignition),
    batt: String(battery),
  });
  if (driverRfid) query.set('driverUniqueId', driverRfid);
  if (fuel !== undefined) query.set('fuelLiters', fuel.toFixed(1));
  return query;
}

/** A tracker's TCP connection: logs in once, reconnects on the next tick when it drops. */
class WialonLink {
  private socket: Socket | undefined;

  constructor(
    private readonly target: { host: string; port: number },
    private readonly identifier: string,
    private readonly password: string,
  ) {}

  send(packet: string) {
    if (!this.socket || this.socket.destroyed) {
      const socket = connect(this.target.port, this.target.host);
      socket.on('error', () => socket.destroy());
      socket.on('data', () => {}); // answers are read and dropped
      const login = `2.0;${this.identifier};${this.password};`;
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
  /** Where the Wialon IPS devices send; without it they stay silent. */
  wialon?: { host: string; port: number } | undefined;
  /** Where each makers' protocol's devices send (those of a family not given stay silent). */
  native?: Partial<Record<NativeProtocol, { host: string; port: number }>> | undefined;
  devices: SimulatedDevice[];
  intervalMs: number;
  log: Logger;
}): () => void {
  let tick = 0;
  let running = true;
  const { wialon } = options;
  const links = new Map(
    wialon
      ? options.devices
          .filter((device) => device.protocol === 'wialon_ips')
          .map((device) => [
            device.identifier,
            new WialonLink(wialon, device.identifier, device.password),
          ])
      : [],
  );
  const natives = new Map<string, NativeLink>();
  for (const device of options.devices) {
    if (device.protocol === 'osmand' || device.protocol === 'wialon_ips') continue;
    const target = options.native?.[device.protocol];
    const speaker = SPEAKERS[device.protocol];
    if (target && speaker)
      natives.set(device.identifier, new NativeLink(target, device.identifier, speaker));
  }
  const send = async () => {
    tick += 1;
    const now = Math.floor(Date.now() / 1000) * 1000;
    await Promise.all(
      options.devices.map(async (device) => {
        const report = reportOf(device, tick, now, options.intervalMs);
        if (!report) return;
        const { step, at, battery, fuel } = report;
        const link = links.get(device.identifier);
        if (link) {
          link.send(wialonPacket(step, at, battery, device.driverRfid, fuel));
          return;
        }
        const native = natives.get(device.identifier);
        if (native) {
          native.send({
            fixTime: at,
            latitude: step.latitude,
            longitude: step.longitude,
            speed: step.speed,
            course: step.course,
            ignition: step.ignition,
            battery,
            driverRfid: device.driverRfid,
          });
          return;
        }
        if (device.protocol !== 'osmand') return;
        const query = osmandQuery(
          device.identifier,
          step,
          at,
          battery,
          device.driverRfid,
          device.password,
          fuel,
        );
        try {
          await fetch(`${options.osmandUrl}/?${query}`, { signal: AbortSignal.timeout(5000) });
        } catch (err) {
          if (running)
            options.log.debug('simulator: send failed', { device: device.identifier, err });
        }
      }),
    );
  };
  const timer = setInterval(() => void send(), options.intervalMs);
  void send();
  options.log.info('simulador ligado', {
    devices: options.devices.length,
    intervalMs: options.intervalMs,
  });
  return () => {
    running = false;
    clearInterval(timer);
    for (const link of links.values()) link.close();
    for (const link of natives.values()) link.close();
  };
}
