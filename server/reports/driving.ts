/**
 * "How they drive": the driving-behaviour events of one vehicle's fixes and the score of a
 * driver over a period. Pure functions over fixes in fix-time order (the database reads them in
 * reports/queries/driving.ts); tests drive them directly.
 *
 * Events:
 * - Harsh braking, acceleration and cornering the device reports itself (its `alarm`
 *   attribute, the same names the HARSH_* alerts read).
 * - Harsh braking and acceleration told from the speed, only between fixes at most
 *   HARSH_MAX_GAP_S apart: over a longer gap a change of speed is an average that says nothing
 *   about how the pedal was pressed. A run of such pairs is one event; one the device itself
 *   reported within ALARM_DEDUPE_MS is not counted twice.
 * - Speeding: one episode per continuous stretch over the limit (a gap of more than
 *   SPEEDING_MAX_GAP_S ends it), graded by its peak with the bands of the CTB, art. 218.
 * - Idling: the engine on and the vehicle still for longer than the configured time.
 *
 * Who drove: the tag (RFID) of the fix; a fix without one keeps the driver of the fix before
 * it while the ignition stays on (trackers read the tag once, at start), and loses it when the
 * ignition goes off or the fixes stop for longer than DRIVER_CARRY_GAP_S. A fix left with no
 * driver this way is the one assigned to the vehicle at its time, if any (attribution.ts).
 */
import {
  DRIVING_WEIGHTS,
  type DrivingEventKind,
  type DrivingWeights,
  MIN_SCORE_KM,
} from '../../src/contract/driving';

/**
 * Harsh braking from the speed: 3.5 m/s² (12.6 km/h lost in a second). Ordinary braking
 * stays under 3 m/s²; telematics insurers and the devices' own defaults put "harsh" between
 * 3.5 and 4 m/s², and the lower end catches the tailgater who brakes hard often.
 */
export const HARSH_BRAKING_MS2 = 3.5;
/**
 * Harsh acceleration from the speed: 3 m/s² (10.8 km/h gained in a second). A loaded truck
 * cannot reach it, a car can only with the pedal to the floor, so lower than braking.
 */
export const HARSH_ACCELERATION_MS2 = 3;
/** Fixes further apart than this tell no harsh event from the speed (see above). */
export const HARSH_MAX_GAP_S = 2;
/** A device alarm this close to a harsh event from the speed is the same event. */
export const ALARM_DEDUPE_MS = 5_000;
/** A speeding stretch with no fix for longer than this is two episodes. */
export const SPEEDING_MAX_GAP_S = 300;
/** The limit when no overspeed rule of the vehicle gives one: the usual company policy. */
export const DEFAULT_SPEED_LIMIT_KMH = 80;
/** Below this, with the engine on, the vehicle idles (GPS speed is never exactly 0). */
export const IDLE_KMH = 2;
/** Idling longer than this (a company may change it: reports/queries/driving-settings.ts). */
export { DEFAULT_IDLE_MINUTES } from '../../src/contract/driving';
/** An idling stretch with no fix for longer than this ends at its last fix. */
export const IDLE_MAX_GAP_S = 900;
/** A fix without a tag keeps the previous fix's driver across at most this gap. */
export const DRIVER_CARRY_GAP_S = 1800;

/** The device alarms (attributes.alarm) that are driving events. */
const ALARM_KINDS: Partial<Record<string, DrivingEventKind>> = {
  hardBraking: 'harshBraking',
  hardAcceleration: 'harshAcceleration',
  hardCornering: 'harshCornering',
};

export interface DrivingFix {
  /** Epoch ms. */
  at: number;
  /** km/h. */
  speed: number | null;
  ignition: boolean | null;
  rfid: string | null;
  /** The device's alarm name, if the fix carries one. */
  alarm: string | null;
  /** Cumulative metres (positions.odometer). */
  odometer: number;
  /** False for a report without GPS (its speed is not a measurement of the vehicle's). */
  valid?: boolean | null;
}

export interface DrivingEvent {
  kind: DrivingEventKind;
  /** Epoch ms: the start of the event (a speeding episode: its peak). */
  at: number;
  rfid: string | null;
  /** No tag: the id of the driver assigned to the vehicle then, if any. */
  assigned?: string | null;
  /** Speeding: the peak speed (km/h); harsh from speed: m/s²; idling: seconds. */
  value: number | null;
  /** Speeding: the limit it was graded against (km/h). */
  limit: number | null;
  /** Where it came from: the device's alarm or our reading of the speed. */
  source: 'device' | 'speed';
}

export interface DrivingOptions {
  speedLimit: number;
  idleMinutes: number;
  /** The id of the driver assigned to the vehicle at an instant, if any. */
  assignedAt?: (at: number) => string | null;
}

export interface VehicleDriving {
  events: DrivingEvent[];
  /** Metres driven per tag ('' for no driver). */
  metres: Map<string, number>;
  /** Of the metres of no driver (''), those driven per assigned driver's id. */
  assignedMetres: Map<string, number>;
}

/**
 * The CTB grade of a peak over a limit (art. 218): "até 20%" over is média, "mais de 20% até
 * 50%" grave, "mais de 50%" gravíssima. Exactly 20 % over is média; exactly 50 % is grave.
 * Compared in hundredths without division so that 96 km/h on 80 is exactly 20 %.
 */
export function speedingGrade(peak: number, limit: number): DrivingEventKind | null {
  if (!(peak > limit) || limit <= 0) return null;
  if (peak * 100 <= limit * 120) return 'speedingMedium';
  if (peak * 100 <= limit * 150) return 'speedingSerious';
  return 'speedingVerySerious';
}

/** The events and the distance per driver of one vehicle's fixes (in fix-time order). */
export function drivingEvents(
  fixes: readonly DrivingFix[],
  options: DrivingOptions,
): VehicleDriving {
  const events: DrivingEvent[] = [];
  const metres = new Map<string, number>();
  const assignedMetres = new Map<string, number>();
  const idleLimitMs = options.idleMinutes * 60_000;

  let driver: string | null = null;
  let assigned: string | null = null;
  let previous: DrivingFix | undefined;
  let previousDriver: string | null = null;
  let previousAssigned: string | null = null;
  // A run of harsh pairs from the speed: its kind, so that one long hard stop is one event.
  let harshRun: DrivingEventKind | null = null;
  let speeding: {
    peak: number;
    at: number;
    rfid: string | null;
    assigned: string | null;
    last: number;
  } | null = null;
  let idle: { since: number; last: number; rfid: string | null; assigned: string | null } | null =
    null;

  const closeSpeeding = () => {
    if (!speeding) return;
    const kind = speedingGrade(speeding.peak, options.speedLimit);
    if (kind)
      events.push({
        kind,
        at: speeding.at,
        rfid: speeding.rfid,
        assigned: speeding.rfid ? null : speeding.assigned,
        value: speeding.peak,
        limit: options.speedLimit,
        source: 'speed',
      });
    speeding = null;
  };
  const closeIdle = () => {
    if (idle && idle.last - idle.since > idleLimitMs)
      events.push({
        kind: 'idling',
        at: idle.since,
        rfid: idle.rfid,
        assigned: idle.assigned,
        value: Math.round((idle.last - idle.since) / 1000),
        limit: null,
        source: 'speed',
      });
    idle = null;
  };

  for (const fix of fixes) {
    const gapS = previous ? (fix.at - previous.at) / 1000 : Number.POSITIVE_INFINITY;
    if (fix.rfid) driver = fix.rfid;
    else if (fix.ignition === false || gapS > DRIVER_CARRY_GAP_S) driver = null;
    // A tag read (or carried) wins; only a fix with no driver so is the assigned driver's.
    assigned = driver ? null : (options.assignedAt?.(fix.at) ?? null);

    if (previous) {
      const step = fix.odometer - previous.odometer;
      if (step > 0) {
        const key = driver ?? previousDriver ?? '';
        metres.set(key, (metres.get(key) ?? 0) + step);
        const who = key === '' ? (assigned ?? previousAssigned) : null;
        if (who) assignedMetres.set(who, (assignedMetres.get(who) ?? 0) + step);
      }
    }

    const alarmKind = fix.alarm ? ALARM_KINDS[fix.alarm] : undefined;
    if (alarmKind)
      events.push({
        kind: alarmKind,
        at: fix.at,
        rfid: driver,
        assigned,
        value: null,
        limit: null,
        source: 'device',
      });

    const speed = fix.valid === false ? null : fix.speed;
    const previousSpeed = previous?.valid === false ? null : previous?.speed;

    // Harsh braking and acceleration from the speed.
    let kind: DrivingEventKind | null = null;
    let accel = 0;
    if (speed != null && previousSpeed != null && gapS > 0 && gapS <= HARSH_MAX_GAP_S) {
      accel = (speed - previousSpeed) / 3.6 / gapS;
      if (accel <= -HARSH_BRAKING_MS2) kind = 'harshBraking';
      else if (accel >= HARSH_ACCELERATION_MS2) kind = 'harshAcceleration';
    }
    if (kind && kind !== harshRun && previous) {
      const start = previous.at;
      const reported = events.some(
        (e) =>
          e.source === 'device' && e.kind === kind && Math.abs(e.at - start) <= ALARM_DEDUPE_MS,
      );
      if (!reported)
        events.push({
          kind,
          at: start,
          rfid: driver,
          assigned,
          value: Math.round(Math.abs(accel) * 10) / 10,
          limit: null,
          source: 'speed',
        });
    }
    harshRun = kind;

    // Speeding episodes.
    if (speeding && gapS > SPEEDING_MAX_GAP_S) closeSpeeding();
    if (speed != null) {
      if (speed > options.speedLimit) {
        if (!speeding) speeding = { peak: speed, at: fix.at, rfid: driver, assigned, last: fix.at };
        else if (speed > speeding.peak) {
          speeding.peak = speed;
          speeding.at = fix.at;
          speeding.rfid = driver ?? speeding.rfid;
          speeding.assigned = assigned ?? speeding.assigned;
        }
        speeding.last = fix.at;
      } else closeSpeeding();
    }

    // Idling.
    if (idle && gapS > IDLE_MAX_GAP_S) closeIdle();
    const still = fix.ignition === true && speed != null && speed <= IDLE_KMH;
    if (still) {
      if (!idle) idle = { since: fix.at, last: fix.at, rfid: driver, assigned };
      else idle.last = fix.at;
    } else if (idle) {
      // The stretch ends at its last still fix: when it moved or stopped the engine between
      // that fix and this one is not known, and a sparse tracker must not make idling longer.
      closeIdle();
    }

    previous = fix;
    previousDriver = driver;
    previousAssigned = assigned;
  }
  closeSpeeding();
  closeIdle();
  events.sort((a, b) => a.at - b.at);
  return { events, metres, assignedMetres };
}

/** The penalty of one event under the weights (idling by its length, per 10 minutes). */
export function eventPenalty(event: DrivingEvent, weights: DrivingWeights = DRIVING_WEIGHTS) {
  if (event.kind === 'idling') return (weights.idling * (event.value ?? 0)) / 600;
  return weights[event.kind];
}

/**
 * The score 0–100 of a period: 100 less the weighted events per 100 km, rounded to one
 * decimal; null under MIN_SCORE_KM ('km insuficientes': two events on 5 km would read as a
 * catastrophe, and none on 5 km as a perfect driver).
 */
export function drivingScore(
  events: readonly DrivingEvent[],
  km: number,
  weights: DrivingWeights = DRIVING_WEIGHTS,
): number | null {
  if (km < MIN_SCORE_KM) return null;
  const penalty = events.reduce((sum, event) => sum + eventPenalty(event, weights), 0);
  const score = 100 - (penalty * 100) / km;
  return Math.max(0, Math.round(score * 10) / 10);
}
