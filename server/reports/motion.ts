/**
 * Trips and stops from a vehicle's fixes, with Traccar's current rules (configurable per
 * customer): a trip starts once the vehicle is `minDistance` (200 m) from where it stood,
 * ends after `stopSeconds` (180 s) without a movement of that size, and a data gap longer
 * than `gapSeconds` (1 h) closes it; where the tracker reports ignition, ignition bounds trips.
 *
 * The rules are evaluated on a window around each fix, never on a state carried from the
 * start of the data: a fix is *moving* when, within the next `stopSeconds`, the vehicle gets
 * `minDistance` away from it (with sparse fixes, when the next fix within the gap is that far).
 * So whether a fix belongs to a trip depends only on the fixes near it, and a report gives the
 * same trips whatever period is asked, once the data read reaches a little before and after
 * it (the caller's look-back and look-ahead; Traccar's long-period mode, which rebuilds trips
 * from stored events, is what makes its reports change with the period).
 *
 * A trip is a run of moving fixes, then sharpened by speed: it starts at the last fix before
 * the vehicle picked up speed and ends at the first fix where it stood again; with ignition,
 * at the ignition-on edge when the vehicle left within `stopSeconds` of it, and at the
 * ignition-off edge when it came within `stopSeconds` of the last movement. A run in which
 * no fix was under way (by its speed, or its distance from the previous one) and a trip that
 * comes back within `minDistance` of its start in under `stopSeconds` are GPS spikes, not trips. Stops are what lies between trips; a gap across which the vehicle changed place ends
 * the stop at the last fix before it.
 */

export interface MotionRules {
  minDistance: number;
  stopSeconds: number;
  gapSeconds: number;
  useIgnition: boolean;
}

export const DEFAULT_RULES: MotionRules = {
  minDistance: 200,
  stopSeconds: 180,
  gapSeconds: 3600,
  useIgnition: true,
};

/** A vehicle's fixes in time order, column by column (hundreds of thousands fit easily). */
export interface Samples {
  time: number[];
  lat: number[];
  lon: number[];
  /** km/h; NaN when the fix has none. */
  speed: number[];
  /** Degrees; NaN when the fix has none. */
  course: number[];
  /** 1 on, 0 off, -1 not reported. */
  ignition: number[];
  odometer: number[];
  /** Which tracker each fix came from (index into `trackers`). */
  tracker: number[];
  /** The driver's tag (index into `rfids`), -1 for none. */
  rfid: number[];
  trackers: string[];
  rfids: string[];
}

export function emptySamples(): Samples {
  return {
    time: [],
    lat: [],
    lon: [],
    speed: [],
    course: [],
    ignition: [],
    odometer: [],
    tracker: [],
    rfid: [],
    trackers: [],
    rfids: [],
  };
}

/** Index ranges into the samples. */
export interface TripSpan {
  start: number;
  end: number;
}
export interface StopSpan {
  start: number;
  end: number;
  /** Seconds with the ignition on during the stop; null when the tracker never said. */
  idle: number | null;
}

/** Speed from which a fix counts as under way, to sharpen where trips start and end. */
const UNDER_WAY_KMH = 5;
const M_PER_DEG = 111_195;

/** Squared ground distance in m² (equirectangular: exact enough for hundreds of metres). */
function distance2(s: Samples, i: number, j: number): number {
  const lat1 = s.lat[i] ?? 0;
  const lat2 = s.lat[j] ?? 0;
  const dy = (lat2 - lat1) * M_PER_DEG;
  const dx =
    ((s.lon[j] ?? 0) - (s.lon[i] ?? 0)) * M_PER_DEG * Math.cos(((lat1 + lat2) * Math.PI) / 360);
  return dx * dx + dy * dy;
}

const at = (list: number[], i: number) => list[i] ?? Number.NaN;

/** Whether the vehicle was under way at fix i: by its speed, or from the previous fix. */
function underWay(s: Samples, i: number): boolean {
  const speed = at(s.speed, i);
  if (!Number.isNaN(speed)) return speed >= UNDER_WAY_KMH;
  if (i === 0) return false;
  const seconds = (at(s.time, i) - at(s.time, i - 1)) / 1000;
  if (seconds <= 0) return false;
  const metres = Math.sqrt(distance2(s, i - 1, i));
  return metres > 30 && (metres / seconds) * 3.6 >= UNDER_WAY_KMH;
}

/** The window rule, for every fix. */
export function movingFixes(s: Samples, rules: MotionRules): Uint8Array {
  const n = s.time.length;
  const moving = new Uint8Array(n);
  const min2 = rules.minDistance * rules.minDistance;
  const stopMs = rules.stopSeconds * 1000;
  const gapMs = rules.gapSeconds * 1000;
  for (let i = 0; i < n; i += 1) {
    if (rules.useIgnition && s.ignition[i] === 0) continue;
    const until = at(s.time, i) + stopMs;
    let j = i + 1;
    let found = false;
    for (; j < n && at(s.time, j) <= until; j += 1) {
      if (at(s.time, j) - at(s.time, j - 1) > gapMs) break;
      if (distance2(s, i, j) >= min2) {
        found = true;
        break;
      }
    }
    // Sparse fixes: nothing within the window, the next one (within the gap) decides.
    if (!found && j === i + 1 && j < n && at(s.time, j) - at(s.time, i) <= gapMs)
      found = distance2(s, i, j) >= min2;
    if (found) moving[i] = 1;
  }
  return moving;
}

/** Where a trip of the run [a, b] starts (see the file's comment); -1 when it never got under way. */
function tripStart(s: Samples, a: number, b: number, floor: number, rules: MotionRules): number {
  const gapMs = rules.gapSeconds * 1000;
  let first = a;
  while (first <= b && !underWay(s, first)) first += 1;
  if (first > b) return -1;
  // The last fix before it picked up speed: in the run, or the stop fix just before it.
  let start = first > a ? first - 1 : a;
  if (first === a && a - 1 >= floor && at(s.time, a) - at(s.time, a - 1) <= gapMs) start = a - 1;
  if (rules.useIgnition && s.ignition[start] === 1) {
    for (let e = start; e >= floor; e -= 1) {
      if (s.ignition[e] !== 1 || at(s.time, first) - at(s.time, e) > rules.stopSeconds * 1000)
        break;
      if (e > floor && at(s.time, e) - at(s.time, e - 1) > gapMs) break;
      if (e === 0 || s.ignition[e - 1] === 0) {
        start = e;
        break;
      }
    }
  }
  return start;
}

/** Where a trip whose last moving fix is b ends, before the fix `ceiling`. */
function tripEnd(s: Samples, b: number, ceiling: number, rules: MotionRules): number {
  const gapMs = rules.gapSeconds * 1000;
  let end = b;
  let lastUnderWay = b;
  for (let j = b + 1; j < ceiling; j += 1) {
    if (at(s.time, j) - at(s.time, j - 1) > gapMs) break;
    end = j;
    if (rules.useIgnition && s.ignition[j] === 0) return j;
    if (!underWay(s, j)) break;
    lastUnderWay = j;
  }
  if (rules.useIgnition) {
    const until = at(s.time, lastUnderWay) + rules.stopSeconds * 1000;
    for (let j = end + 1; j < ceiling && at(s.time, j) <= until; j += 1) {
      if (at(s.time, j) - at(s.time, j - 1) > gapMs) break;
      if (s.ignition[j] === 0) return j;
    }
  }
  return end;
}

export function detectTrips(s: Samples, rules: MotionRules = DEFAULT_RULES): TripSpan[] {
  const n = s.time.length;
  const moving = movingFixes(s, rules);
  const gapMs = rules.gapSeconds * 1000;
  const runs: [number, number][] = [];
  for (let i = 0; i < n; i += 1) {
    if (!moving[i]) continue;
    let j = i;
    while (j + 1 < n && moving[j + 1] && at(s.time, j + 1) - at(s.time, j) <= gapMs) j += 1;
    runs.push([i, j]);
    i = j;
  }
  const trips: TripSpan[] = [];
  let floor = 0;
  runs.forEach(([a, b], k) => {
    const next = runs[k + 1];
    const start = tripStart(s, a, b, floor, rules);
    // Never under way (every fix says it stood still): a jump of the GPS, not a trip.
    if (start < 0) return;
    const end = tripEnd(s, b, next ? next[0] : n, rules);
    const spike =
      distance2(s, start, end) < rules.minDistance ** 2 &&
      at(s.time, end) - at(s.time, start) < rules.stopSeconds * 1000;
    if (end > start && !spike) {
      trips.push({ start, end });
      floor = end;
    }
  });
  return trips;
}

/** The stops between trips (and before the first and after the last). */
export function detectStops(s: Samples, trips: TripSpan[], rules: MotionRules): StopSpan[] {
  const n = s.time.length;
  if (n === 0) return [];
  const gapMs = rules.gapSeconds * 1000;
  const min2 = rules.minDistance * rules.minDistance;
  const stops: StopSpan[] = [];
  const add = (start: number, end: number) => {
    if (end <= start) return;
    let idle: number | null = null;
    for (let j = start; j < end; j += 1) {
      if (s.ignition[j] === -1) continue;
      idle ??= 0;
      if (s.ignition[j] === 1) idle += Math.min(at(s.time, j + 1) - at(s.time, j), gapMs) / 1000;
    }
    stops.push({ start, end, idle });
  };
  const between = (from: number, to: number) => {
    let start = from;
    for (let j = from + 1; j <= to; j += 1) {
      // A gap across which the vehicle changed place: it was not standing here meanwhile.
      if (at(s.time, j) - at(s.time, j - 1) > gapMs && distance2(s, j - 1, j) >= min2) {
        add(start, j - 1);
        start = j;
      }
    }
    add(start, to);
  };
  let from = 0;
  for (const trip of trips) {
    between(from, trip.start);
    from = trip.end;
  }
  between(from, n - 1);
  return stops;
}

/** Metres driven between two fixes: the odometer's steps, none across a change of tracker. */
export function metresBetween(s: Samples, start: number, end: number): number {
  let metres = 0;
  let runStart = start;
  for (let j = start + 1; j <= end + 1; j += 1) {
    if (j > end || s.tracker[j] !== s.tracker[j - 1]) {
      metres += at(s.odometer, j - 1) - at(s.odometer, runStart);
      runStart = j;
    }
  }
  return metres;
}

/** The highest speed between two fixes (km/h), 0 when none was reported. */
export function maxSpeedBetween(s: Samples, start: number, end: number): number {
  let max = 0;
  for (let j = start; j <= end; j += 1) {
    const speed = at(s.speed, j);
    if (speed > max) max = speed;
  }
  return max;
}

/** The driver's tag read most often between two fixes, or null. */
export function driverBetween(s: Samples, start: number, end: number): string | null {
  const counts = new Map<number, number>();
  for (let j = start; j <= end; j += 1) {
    const tag = s.rfid[j] ?? -1;
    if (tag >= 0) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  let best = -1;
  let most = 0;
  for (const [tag, count] of counts)
    if (count > most) {
      best = tag;
      most = count;
    }
  return best >= 0 ? (s.rfids[best] ?? null) : null;
}
