/**
 * Synthetic tracks with known answers: a builder that drives, parks, idles and goes silent
 * from a start time and place, one fix every `every` seconds, and records what it did (the
 * trips it drove, the metres) so tests can compare the server's reports with the truth.
 */
import { type OdometerPoint, odometerStep } from '../../server/ingest/queries/odometer';
import type { Fix } from '../../server/ingest/queries/positions';
import { emptySamples, type Samples } from '../../server/reports/motion';

const M_PER_DEG_LAT = 111_320;

export interface Truth {
  trips: { start: number; end: number; metres: number }[];
}

export class Track {
  readonly fixes: Fix[] = [];
  readonly truth: Truth = { trips: [] };
  private time: number;
  private lat: number;
  private lon: number;
  private seed = 7;

  constructor(start: Date | string, at: [number, number] = [-8.05, -34.9]) {
    this.time = new Date(start).getTime();
    [this.lat, this.lon] = at;
  }

  get now() {
    return this.time;
  }

  /** A deterministic pseudo-random number in [0, 1). */
  private random() {
    this.seed = (this.seed * 16807) % 2147483647;
    return this.seed / 2147483647;
  }

  private push(extra: Partial<Fix>, offset: [number, number] = [0, 0]) {
    this.fixes.push({
      fixTime: new Date(this.time),
      latitude: this.lat + offset[0],
      longitude: this.lon + offset[1],
      speed: 0,
      attributes: {},
      ...extra,
    });
  }

  /** Drives `seconds` at `kmh` towards `bearing` (degrees), a fix every `every` s. */
  drive(
    seconds: number,
    kmh: number,
    bearing = 90,
    options: { every?: number; ignition?: boolean; driverRfid?: string } = {},
  ) {
    const every = options.every ?? 10;
    const start = this.time;
    let metres = 0;
    for (let t = every; t <= seconds; t += every) {
      const step = (kmh / 3.6) * every;
      metres += step;
      const rad = (bearing * Math.PI) / 180;
      this.lat += (step * Math.cos(rad)) / M_PER_DEG_LAT;
      this.lon += (step * Math.sin(rad)) / (M_PER_DEG_LAT * Math.cos((this.lat * Math.PI) / 180));
      this.time += every * 1000;
      this.push({
        speed: kmh,
        course: bearing,
        ...(options.ignition !== undefined ? { ignition: options.ignition } : {}),
        ...(options.driverRfid ? { driverRfid: options.driverRfid } : {}),
      });
    }
    this.truth.trips.push({ start, end: this.time, metres });
    return this;
  }

  /** Stands still for `seconds` (jitter: GPS noise up to that many metres, speed 0). */
  park(seconds: number, options: { every?: number; ignition?: boolean; jitter?: number } = {}) {
    const every = options.every ?? 10;
    for (let t = every; t <= seconds; t += every) {
      this.time += every * 1000;
      const j = options.jitter ?? 0;
      const offset: [number, number] = [
        ((this.random() * 2 - 1) * j) / M_PER_DEG_LAT,
        ((this.random() * 2 - 1) * j) / M_PER_DEG_LAT,
      ];
      this.push(
        { speed: 0, ...(options.ignition !== undefined ? { ignition: options.ignition } : {}) },
        offset,
      );
    }
    return this;
  }

  /** No fixes for `seconds` (the vehicle may move meanwhile: `moveMetres` east). */
  silence(seconds: number, moveMetres = 0) {
    this.time += seconds * 1000;
    this.lon += moveMetres / (M_PER_DEG_LAT * Math.cos((this.lat * Math.PI) / 180));
    return this;
  }

  /** One fix here and now (e.g. the first after a silence). */
  fix(extra: Partial<Fix> = {}) {
    this.push(extra);
    return this;
  }
}

/** The fixes of a track as the reports read them (odometer from the ingest rule). */
export function samplesOf(fixes: Fix[]): Samples {
  const s = emptySamples();
  s.trackers.push('t');
  let previous: OdometerPoint | undefined;
  let odometer = 0;
  for (const fix of fixes) {
    const point: OdometerPoint = {
      time: fix.fixTime.getTime(),
      latitude: fix.latitude,
      longitude: fix.longitude,
      vehicleId: 'v',
      speed: fix.speed,
    };
    odometer += odometerStep(previous, point);
    previous = point;
    s.time.push(point.time);
    s.lat.push(fix.latitude);
    s.lon.push(fix.longitude);
    s.speed.push(fix.speed ?? Number.NaN);
    s.course.push(fix.course ?? Number.NaN);
    s.ignition.push(fix.ignition === undefined ? -1 : fix.ignition ? 1 : 0);
    s.odometer.push(odometer);
    s.tracker.push(0);
    let tag = -1;
    if (fix.driverRfid) {
      tag = s.rfids.indexOf(fix.driverRfid);
      if (tag < 0) tag = s.rfids.push(fix.driverRfid) - 1;
    }
    s.rfid.push(tag);
  }
  return s;
}
