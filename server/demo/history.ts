/**
 * The demo's past week, so every report has something to show on first start: for each demo
 * vehicle, the last `days` São Paulo days of fixes that read like a fleet's week. On workdays
 * a vehicle leaves its depot in the morning (each at its own time), drives its route with its
 * delivery stops (engine off where the route says so), stops for lunch, drives on and returns
 * to the depot; on Saturdays some work the morning; on Sundays they stay parked. Machines that
 * idle (the concrete mixer, the crane) run their engine through working hours; vehicles off
 * for the night stay parked all week. Fixes come every 30 s under way and every 15 min parked
 * (a lower rate than the live simulator's, so the week is written in seconds).
 *
 * The week ends a little more than an hour before the server started: the live simulator then
 * takes over after a data gap (which reports show as such), without a jump ingest would refuse.
 */

import { dayStart, nextDay, reportDay } from '../../src/lib/report-period';
import type { Fix } from '../ingest/queries/positions';
import { styled } from './driving-style';
import { type DemoVehicle, type Leg, type Place, place } from './fleet';
import { sensorLitres } from './fuel';
import { bearing, distanceKm, spotOf } from './simulator';

const MOVING_EVERY_S = 30;
/**
 * Before the week, a driver's vehicle keeps a sparser record back to the start of last month
 * (the driving ranking compares the two months): a fix every 5 min under way and every hour
 * parked, so that the demo's first start writes it in seconds more, not a minute.
 */
const OLDER_MOVING_EVERY_S = 300;
const OLDER_PARKED_EVERY_S = 3600;
const PARKED_EVERY_S = 900;
const IDLE_EVERY_S = 120;
/** How long before the start the week ends (a data gap longer than an hour). */
export const HISTORY_GAP_MS = 75 * 60_000;

type Emit = (at: number, where: Place, speed: number, course: number, ignition: boolean) => void;

/** A small deterministic number per vehicle and day, so each has its own schedule. */
function jitter(seed: string, span: number): number {
  let hash = 0;
  for (const char of seed) hash = (hash * 33 + char.charCodeAt(0)) >>> 0;
  return hash % span;
}

class Day {
  time: number;
  where: Place;
  movingEveryS = MOVING_EVERY_S;
  parkedEveryS = PARKED_EVERY_S;
  constructor(
    start: number,
    where: Place,
    private readonly emit: Emit,
  ) {
    this.time = start;
    this.where = where;
  }

  /** Drives straight to `to` at about `kmh`, a fix every 30 s. */
  drive(to: Place, kmh: number) {
    const seconds = (distanceKm(this.where, to) / kmh) * 3600;
    const course = Math.round(bearing(this.where, to));
    const from = this.where;
    // No fix in the last seconds before arriving: 50 km/h to 0 within a second or two would
    // read as a harsh braking the demo's drivers did not do.
    // A leg shorter than the fix interval still has one fix under way (its middle): else the
    // stops on either side would read as one long stop with the engine on.
    const every = Math.min(this.movingEveryS, Math.max(seconds / 2, 1));
    for (let t = every; t < seconds - 3; t += every) {
      const f = t / seconds;
      const speed = Math.round(kmh * (1 + 0.08 * Math.sin((this.time + t * 1000) / 23_000)));
      this.emit(
        this.time + t * 1000,
        [from[0] + (to[0] - from[0]) * f, from[1] + (to[1] - from[1]) * f],
        speed,
        course,
        true,
      );
    }
    this.time += seconds * 1000;
    this.where = to;
    this.emit(this.time, to, 0, course, true);
  }

  /**
   * Stands still until `until` (engine on: idling, reported more often). As trackers do, the
   * change of ignition is reported at once, and so is the engine starting before `departs`.
   */
  stand(until: number, ignition: boolean, departs = true) {
    if (until <= this.time) return;
    const every = (ignition ? IDLE_EVERY_S : this.parkedEveryS) * 1000;
    const first = this.time + 20_000;
    if (first < until) this.emit(first, this.where, 0, 0, ignition);
    for (let t = first + every; t < until - 20_000; t += every)
      this.emit(t, this.where, 0, 0, ignition);
    if (departs && until - 20_000 > first) this.emit(until - 20_000, this.where, 0, 0, true);
    this.time = until;
  }
}

/** One working day along a route's legs, from the depot and back. */
function workDay(day: Day, legs: Leg[], depot: Place, leave: number, lunch: number, stop: number) {
  day.stand(leave, false);
  let lunched = false;
  for (let i = 0; day.time < stop; i = (i + 1) % legs.length) {
    const leg = legs[i];
    if (!leg) break;
    day.drive(place(leg.to), leg.kmh);
    if (leg.dwellS) day.stand(day.time + leg.dwellS * 1000, !leg.engineOff);
    if (!lunched && day.time >= lunch) {
      lunched = true;
      day.stand(day.time + 3600_000, false);
    }
  }
  day.drive(depot, 40);
}

/**
 * The fixes of one demo vehicle over the `days` São Paulo days before `end`; a vehicle with a
 * driver also `olderDays` more before them, sparser, and drives in its driver's style
 * (server/demo/driving-style.ts).
 */
export function historyOf(vehicle: DemoVehicle, days: number, end: Date, olderDays = 0): Fix[] {
  const fixes: Fix[] = [];
  const [dLat, dLon] = spotOf(vehicle.identifier);
  const plan = vehicle.plan;
  const stopAt = plan.kind === 'silent' ? end.getTime() - 2 * 3600_000 : end.getTime();
  const emit: Emit = (at, where, speed, course, ignition) => {
    if (at >= stopAt) return;
    const moving = speed > 0;
    const style =
      moving && vehicle.driver
        ? styled(vehicle.driver.rfid, at, end.getTime(), day?.movingEveryS ?? MOVING_EVERY_S, speed)
        : undefined;
    fixes.push({
      fixTime: new Date(Math.floor(at / 1000) * 1000),
      latitude: where[0] + dLat,
      longitude: where[1] + dLon,
      speed: style?.speed ?? speed,
      course,
      ignition,
      battery: vehicle.battery,
      ...(moving && vehicle.driver ? { driverRfid: vehicle.driver.rfid } : {}),
      // A fuel sensor reads the tank on every report (server/demo/fuel.ts tells its week).
      attributes: {
        ...(style?.alarm ? { alarm: style.alarm } : {}),
        ...(vehicle.fuelTank ? { fuelLiters: sensorLitres(end.getTime(), at) } : {}),
      },
    });
  };
  let detailed = reportDay(end);
  for (let i = 1; i < days; i += 1) detailed = reportDay(dayStart(detailed).getTime() - 3600_000);
  let first = detailed;
  const older = vehicle.driver ? olderDays : 0;
  for (let i = 0; i < older; i += 1) first = reportDay(dayStart(first).getTime() - 3600_000);
  const legs = plan.kind === 'drive' ? plan.legs : [];
  const depot =
    plan.kind === 'drive' ? place(legs.at(-1)?.to ?? legs[0]?.to ?? 'marcoZero') : place(plan.at);
  let day: Day | undefined;
  for (let date = first; dayStart(date).getTime() < stopAt; date = nextDay(date)) {
    const start = dayStart(date).getTime();
    const weekday = new Date(start + 12 * 3600_000).getUTCDay();
    day ??= new Day(start, depot, emit);
    day.movingEveryS = date < detailed ? OLDER_MOVING_EVERY_S : MOVING_EVERY_S;
    day.parkedEveryS = date < detailed ? OLDER_PARKED_EVERY_S : PARKED_EVERY_S;
    const at = (h: number, m = 0) => start + (h * 60 + m) * 60_000;
    const seed = `${vehicle.identifier}${date}`;
    const workday = weekday >= 1 && weekday <= 5;
    if (plan.kind === 'drive' && workday) {
      workDay(
        day,
        legs,
        depot,
        at(6, 30 + jitter(seed, 80)),
        at(11, 45),
        at(16, 30 + jitter(`${seed}e`, 60)),
      );
    } else if (plan.kind === 'drive' && weekday === 6 && jitter(vehicle.identifier, 3) === 0) {
      workDay(day, legs, depot, at(7, jitter(seed, 60)), at(23), at(10, 30));
    } else if (plan.kind === 'parked' && plan.ignition && (workday || weekday === 6)) {
      day.stand(at(7), false, false);
      day.stand(at(workday ? 17 : 12), true, false);
    }
    day.stand(at(24), false, false);
  }
  return fixes;
}
