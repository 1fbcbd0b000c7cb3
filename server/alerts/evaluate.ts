/**
 * The alert rules applied to one fix of one vehicle: a pure function of the vehicle's state
 * (what the previous fixes established), the fix and the vehicle's rules, geofences and
 * associations. It updates the state in place and returns the alerts to raise. The engine
 * (server/alerts/engine.ts) feeds it every stored fix in fix-time order and keeps the state
 * in the database; tests drive it directly.
 *
 * Semantics (see the README, "Alertas"):
 * - IGNITION_ON / IGNITION_OFF: a change between consecutive fixes that carry ignition.
 *   DIN1: input 1 turning on (off → on).
 * - OVERSPEED: once per episode, when the speed has stayed above limit × (1 + tolerance) for
 *   `minDurationSeconds`; the episode ends when it falls back. Inside geofences with a speed
 *   limit, the lowest of those limits replaces the rule's.
 * - LOW_BATTERY, LOW_FUEL, HIGH_ENGINE_TEMP, HIGH_RPM, DEVICE_POWER_DISCONNECTED: crossing the
 *   threshold (the first reading already across counts), not every fix across it.
 * - Geofences: membership changes only when a fix is `hysteresis` metres across the border or
 *   two consecutive fixes agree, so a track zig-zagging on a border changes nothing. Each
 *   watched condition (a rule's geofence, an association's rule kind within its interval)
 *   raises when it becomes violated; its first evaluation only records it.
 * - FUEL_DROP: while the vehicle stands with its engine off (ignition off; without ignition,
 *   under PARKED_KMH), the fuel reading (litres, else percent) is compared with where it stood
 *   when it stopped. A drop of the rule's amount, seen in two readings in a row (one noisy
 *   reading of a sensor in a sloshing tank is not a theft), raises once per stop and rule. A
 *   refuel (a rise of REFUEL_RISE from the stop's lowest reading) becomes the new level and
 *   arms the rules again; it is never an alert. Moving or starting the engine ends the stop.
 * - Device alarms (PANIC, JAMMING, TOWING, HARSH_*): every fix whose `attributes.alarm` names
 *   one raises it (an alarm is an event, not a state: each is the device's own report).
 * - A rule's schedule (São Paulo time) decides whether an alert is raised; the state moves on
 *   regardless.
 */
import {
  type AlertType,
  type DeviceAlarmType,
  RESTRICTION_ALERT,
  type RestrictionType,
} from '../../src/contract';
import { type Window, withinWindow } from '../../src/lib/schedule';
import type { GeofenceIndex } from '../geofences/spatial-index';

/** Fixes received more than this after their time raise alerts marked late (not notified). */
export const LATE_MS = 15 * 60_000;

export interface CompiledRule {
  id: string;
  name: string;
  type: AlertType;
  params: Record<string, unknown>;
  schedule: Window | null;
  emailDelivery: string;
  geofenceIds: string[];
}

export interface CompiledAssociation {
  id: string;
  geofenceId: string;
  kind: RestrictionType;
  window: Window | null;
}

export interface VehicleContext {
  vehicleId: string;
  clientId: string;
  rules: CompiledRule[];
  associations: CompiledAssociation[];
  index: GeofenceIndex;
  /** Metres across a border that confirm a crossing at once. */
  hysteresis: number;
}

export interface EvalFix {
  fixTime: number;
  receivedAt: number;
  latitude: number;
  longitude: number;
  speed?: number | null | undefined;
  ignition?: boolean | null | undefined;
  battery?: number | null | undefined;
  attributes: Record<string, unknown>;
  /**
   * False for a report without GPS: its place is borrowed from the fix before it, so it moves
   * no geofence membership (a second report at the same place would confirm a crossing).
   */
  positioned?: boolean | undefined;
}

export interface VehicleState {
  /** The newest fix time evaluated (ms). */
  t?: number;
  ign?: boolean;
  din1?: boolean;
  /** Membership has been established once. */
  geoKnown?: boolean;
  /** Geofences the vehicle is confirmed inside. */
  geo?: string[];
  /** Geofences whose last fix was across the border, not yet confirmed: the side it was on. */
  pend?: Record<string, boolean>;
  /** Watched conditions: violated or not. */
  watch?: Record<string, boolean>;
  /** Threshold rules: across the threshold or not. */
  side?: Record<string, boolean>;
  /** Overspeed episodes per rule. */
  os?: Record<string, { since: number; raised: boolean }>;
  /** The fuel of the current stop with the engine off (see FUEL_DROP). */
  fuel?: FuelStop;
}

export interface FuelStop {
  /** The highest reading of the stop so far: where it stood, or where a refuel took it. */
  base: number;
  /** The lowest reading since `base`: a refuel is a rise from here. */
  low?: number;
  unit: 'l' | '%';
  /** Readings in a row at least each rule's drop below `base`. */
  below?: Record<string, number>;
  /** Rules that raised in this stop. */
  raised?: string[];
}

/** Without an ignition reading, a vehicle slower than this stands still (km/h). */
export const PARKED_KMH = 3;
/** The drops a FUEL_DROP rule waits for when it names none. */
export const DEFAULT_FUEL_DROP = { l: 20, '%': 10 } as const;
/**
 * A rise this big from the lowest reading of the stop is a refuel (not a sensor's noise): the
 * level is measured from there on, and the rules may raise again.
 */
export const REFUEL_RISE = { l: 10, '%': 5 } as const;

export interface Raised {
  rule: CompiledRule;
  type: AlertType;
  vehicleId: string;
  clientId: string;
  geofence: { id: string; name: string } | null;
  fix: EvalFix;
  late: boolean;
  dedupeKey: string;
  details: Record<string, unknown>;
}

/** The alert type of each device alarm (server/ingest/native/codec.ts ALARMS) that has one. */
export const ALARM_ALERTS: Partial<Record<string, DeviceAlarmType>> = {
  sos: 'PANIC',
  jamming: 'JAMMING',
  tow: 'TOWING',
  hardBraking: 'HARSH_BRAKING',
  hardAcceleration: 'HARSH_ACCELERATION',
  hardCornering: 'HARSH_CORNERING',
};

/** The alert type a fix's device alarm raises, if any. */
export function alarmAlert(fix: Pick<EvalFix, 'attributes'>): DeviceAlarmType | undefined {
  const alarm = fix.attributes.alarm;
  return typeof alarm === 'string' ? ALARM_ALERTS[alarm] : undefined;
}

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

export function updateMembership(
  state: VehicleState,
  fix: EvalFix,
  ctx: Pick<VehicleContext, 'index' | 'hysteresis'>,
): Set<string> {
  const near = new Map(
    ctx.index.near(fix.longitude, fix.latitude).map((n) => [n.geofence.id, n] as const),
  );
  if (!state.geoKnown) {
    state.geoKnown = true;
    state.pend = {};
    const inside = new Set([...near.values()].filter((n) => n.inside).map((n) => n.geofence.id));
    state.geo = [...inside];
    return inside;
  }
  const confirmed = new Set((state.geo ?? []).filter((id) => ctx.index.byId.has(id)));
  const pend: Record<string, boolean> = {};
  const previous = state.pend ?? {};
  for (const id of new Set([...confirmed, ...near.keys()])) {
    const seen = near.get(id);
    const raw = seen?.inside ?? false;
    const border = seen?.border ?? Number.POSITIVE_INFINITY;
    const wasIn = confirmed.has(id);
    if (raw === wasIn) continue;
    if (border >= ctx.hysteresis || previous[id] === raw) {
      if (raw) confirmed.add(id);
      else confirmed.delete(id);
    } else pend[id] = raw;
  }
  state.geo = [...confirmed];
  state.pend = pend;
  return confirmed;
}

export function isLate(fix: Pick<EvalFix, 'fixTime' | 'receivedAt'>): boolean {
  return fix.receivedAt - fix.fixTime > LATE_MS;
}

/**
 * Applies the rules to one fix; updates `state`; returns the alerts. `silent` establishes the
 * state without raising anything (a late black box's starting point).
 */
export function evaluate(
  state: VehicleState,
  fix: EvalFix,
  ctx: VehicleContext,
  silent = false,
): Raised[] {
  const raised: Raised[] = [];
  const at = fix.fixTime;
  const late = isLate(fix);
  const raise = (
    rule: CompiledRule,
    type: AlertType,
    details: Record<string, unknown>,
    geofenceId?: string,
  ) => {
    if (silent) return;
    if (rule.schedule && !withinWindow(rule.schedule, at)) return;
    const geofence = geofenceId ? ctx.index.byId.get(geofenceId) : undefined;
    raised.push({
      rule,
      type,
      vehicleId: ctx.vehicleId,
      clientId: ctx.clientId,
      geofence: geofence ? { id: geofence.id, name: geofence.name } : null,
      fix,
      late,
      dedupeKey: `${rule.id}:${ctx.vehicleId}:${type}:${at}${geofenceId ? `:${geofenceId}` : ''}`,
      details: geofence ? { ...details, geofenceName: geofence.name } : details,
    });
  };
  const ofType = (type: AlertType) => ctx.rules.filter((r) => r.type === type);

  // ── Geofences ─────────────────────────────────────────────────────────────────────────
  const inside =
    fix.positioned === false ? new Set(state.geo ?? []) : updateMembership(state, fix, ctx);
  const before = state.watch ?? {};
  const watch: Record<string, boolean> = {};
  const edge = (key: string, violated: boolean, onRise: () => void) => {
    const was = before[key];
    watch[key] = violated;
    if (was === false && violated) onRise();
  };
  for (const rule of ctx.rules) {
    if (rule.type !== 'GEOFENCE_ENTER' && rule.type !== 'GEOFENCE_EXIT') continue;
    for (const id of rule.geofenceIds) {
      if (!ctx.index.byId.has(id)) continue;
      const violated = rule.type === 'GEOFENCE_ENTER' ? inside.has(id) : !inside.has(id);
      edge(`r:${rule.id}:${id}`, violated, () => raise(rule, rule.type, {}, id));
    }
  }
  for (const association of ctx.associations) {
    if (!ctx.index.byId.has(association.geofenceId)) continue;
    const type = RESTRICTION_ALERT[association.kind];
    const isIn = inside.has(association.geofenceId);
    const inWindow = association.window ? withinWindow(association.window, at) : true;
    const violated = (type === 'GEOFENCE_EXIT' ? !isIn : isIn) && inWindow;
    edge(`a:${association.id}`, violated, () => {
      for (const rule of ofType(type))
        if (rule.geofenceIds.length === 0)
          raise(rule, type, { restrictionType: association.kind }, association.geofenceId);
    });
  }
  state.watch = watch;

  // ── Overspeed ─────────────────────────────────────────────────────────────────────────
  const speed = num(fix.speed);
  let zoneLimit: number | undefined;
  for (const id of inside) {
    const limit = ctx.index.byId.get(id)?.speedLimit;
    if (limit != null && (zoneLimit === undefined || limit < zoneLimit)) zoneLimit = limit;
  }
  const episodes: NonNullable<VehicleState['os']> = {};
  for (const rule of ofType('OVERSPEED')) {
    const previous = state.os?.[rule.id];
    if (speed === undefined) {
      if (previous) episodes[rule.id] = previous;
      continue;
    }
    const limit = zoneLimit ?? num(rule.params.speedLimit) ?? Number.POSITIVE_INFINITY;
    const threshold = limit * (1 + (num(rule.params.tolerancePercent) ?? 0) / 100);
    if (speed <= threshold) continue;
    const episode = previous ?? { since: at, raised: silent };
    const minMs = (num(rule.params.minDurationSeconds) ?? 0) * 1000;
    if (!episode.raised && at - episode.since >= minMs) {
      const scheduled = !rule.schedule || withinWindow(rule.schedule, at);
      if (scheduled) {
        raise(rule, 'OVERSPEED', { speed, limit, zone: zoneLimit !== undefined });
        episode.raised = true;
      }
    }
    episodes[rule.id] = episode;
  }
  state.os = episodes;

  // ── Ignition and input 1 ──────────────────────────────────────────────────────────────
  if (typeof fix.ignition === 'boolean') {
    if (state.ign !== undefined && state.ign !== fix.ignition) {
      const type = fix.ignition ? 'IGNITION_ON' : 'IGNITION_OFF';
      for (const rule of ofType(type)) raise(rule, type, {});
    }
    state.ign = fix.ignition;
  }
  const din1 = fix.attributes.din1;
  if (typeof din1 === 'boolean') {
    if (state.din1 === false && din1) for (const rule of ofType('DIN1')) raise(rule, 'DIN1', {});
    state.din1 = din1;
  }

  // ── Thresholds ────────────────────────────────────────────────────────────────────────
  const sides: Record<string, boolean> = {};
  const threshold = (
    type: AlertType,
    reading: (rule: CompiledRule) => { across: boolean; details: Record<string, unknown> } | null,
  ) => {
    for (const rule of ofType(type)) {
      const seen = reading(rule);
      const was = state.side?.[rule.id];
      if (!seen) {
        if (was !== undefined) sides[rule.id] = was;
        continue;
      }
      sides[rule.id] = seen.across;
      if (seen.across && was !== true) raise(rule, type, seen.details);
    }
  };
  const compare = (value: number | undefined, high: boolean) => (rule: CompiledRule) => {
    const limit = num(rule.params.threshold);
    if (value === undefined || limit === undefined) return null;
    return { across: high ? value > limit : value < limit, details: { value, threshold: limit } };
  };
  threshold('LOW_BATTERY', compare(num(fix.battery), false));
  threshold('LOW_FUEL', compare(num(fix.attributes.fuelLevel), false));
  threshold('HIGH_ENGINE_TEMP', compare(num(fix.attributes.engineTemp), true));
  threshold('HIGH_RPM', compare(num(fix.attributes.rpm), true));
  const power = num(fix.attributes.power);
  const cut = fix.attributes.powerCut;
  threshold('DEVICE_POWER_DISCONNECTED', (rule) => {
    const limit = num(rule.params.threshold) ?? 6;
    if (cut === true) return { across: true, details: { powerCut: true } };
    if (power !== undefined)
      return { across: power < limit, details: { value: power, threshold: limit } };
    if (cut === false) return { across: false, details: {} };
    return null;
  });
  state.side = sides;

  // ── Fuel taken while parked ───────────────────────────────────────────────────────────
  const parked =
    fix.ignition === false ||
    (typeof fix.ignition !== 'boolean' && speed !== undefined && speed < PARKED_KMH);
  if (!parked) delete state.fuel;
  else {
    const litres = num(fix.attributes.fuelLiters);
    const percent = num(fix.attributes.fuelLevel);
    const reading =
      litres !== undefined
        ? { value: litres, unit: 'l' as const }
        : percent !== undefined
          ? { value: percent, unit: '%' as const }
          : undefined;
    const stop = state.fuel;
    if (reading && (!stop || stop.unit !== reading.unit))
      state.fuel = { base: reading.value, unit: reading.unit };
    else if (reading && stop) {
      const low = Math.min(stop.low ?? stop.base, stop.base);
      if (reading.value - low >= REFUEL_RISE[stop.unit])
        state.fuel = { base: reading.value, unit: stop.unit };
      else if (reading.value > stop.base) stop.base = reading.value;
      else {
        stop.low = Math.min(low, reading.value);
        const below: Record<string, number> = {};
        const raisedIn = new Set(stop.raised ?? []);
        const drop = stop.base - reading.value;
        for (const rule of ofType('FUEL_DROP')) {
          const min =
            num(rule.params[stop.unit === 'l' ? 'minDropLiters' : 'minDropPercent']) ??
            DEFAULT_FUEL_DROP[stop.unit];
          if (drop < min) continue;
          below[rule.id] = (stop.below?.[rule.id] ?? 0) + 1;
          if ((below[rule.id] ?? 0) >= 2 && !raisedIn.has(rule.id)) {
            raise(rule, 'FUEL_DROP', {
              drop: Math.round(drop * 10) / 10,
              from: stop.base,
              to: reading.value,
              unit: stop.unit,
            });
            raisedIn.add(rule.id);
          }
        }
        stop.below = below;
        stop.raised = [...raisedIn];
      }
    }
  }

  // ── Device alarms ─────────────────────────────────────────────────────────────────────
  const alarm = alarmAlert(fix);
  if (alarm) for (const rule of ofType(alarm)) raise(rule, alarm, { alarm: fix.attributes.alarm });

  if (state.t === undefined || at > state.t) state.t = at;
  return raised;
}
