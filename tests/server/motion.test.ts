/**
 * Trips and stops on synthetic tracks with known answers (server/reports/motion.ts): the
 * window rules of Traccar's defaults, data gaps, GPS jitter, and ignition bounds.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RULES,
  detectStops,
  detectTrips,
  metresBetween,
  type Samples,
} from '../../server/reports/motion';
import { samplesOf, Track } from './tracks';

const T0 = '2026-03-10T11:00:00Z';
const sec = (s: Samples, i: number) => ((s.time[i] ?? 0) - Date.parse(T0)) / 1000;

function analyse(track: Track, rules = DEFAULT_RULES) {
  const s = samplesOf(track.fixes);
  const trips = detectTrips(s, rules);
  const stops = detectStops(s, trips, rules);
  return { s, trips, stops };
}

describe('trips and stops', () => {
  it('finds two trips around a 30-minute stop', () => {
    const track = new Track(T0).park(300).drive(900, 50).park(1800).drive(600, 40, 180).park(300);
    const { s, trips, stops } = analyse(track);
    expect(trips).toHaveLength(2);
    const [a, b] = trips;
    if (!a || !b) throw new Error('two trips');
    // Each starts at the last fix before it moved and ends at its first fix standing still.
    expect(sec(s, a.start)).toBe(300);
    expect(sec(s, a.end)).toBe(1210);
    expect(sec(s, b.start)).toBe(3000);
    expect(sec(s, b.end)).toBe(3610);
    const known = track.truth.trips;
    const close = (metres: number, truth = 0) => Math.abs(metres - truth) / truth < 0.005;
    expect(close(metresBetween(s, a.start, a.end), known[0]?.metres)).toBe(true);
    expect(close(metresBetween(s, b.start, b.end), known[1]?.metres)).toBe(true);
    // The stop between them: from the end of one to the start of the next (~30 min).
    const between = stops.find((stop) => stop.start === a.end);
    expect(between && sec(s, between.end) - sec(s, between.start)).toBe(1790);
    expect(stops).toHaveLength(3);
  });

  it('closes a trip at a data gap longer than an hour, and starts another after it', () => {
    const track = new Track(T0)
      .drive(600, 60)
      .silence(7200, 30_000)
      .fix({ speed: 60 })
      .drive(600, 60);
    const { s, trips, stops } = analyse(track);
    expect(trips.map((t) => [sec(s, t.start), sec(s, t.end)])).toEqual([
      [10, 600],
      [7800, 8400],
    ]);
    // No stop pretends the vehicle stood still where it was last seen for two hours.
    expect(stops.every((stop) => sec(s, stop.end) - sec(s, stop.start) < 3600)).toBe(true);
  });

  it('keeps a vehicle that was silent for two hours in one place stopped', () => {
    const track = new Track(T0).park(600).silence(7200).fix().park(600);
    const { trips, stops } = analyse(track);
    expect(trips).toHaveLength(0);
    expect(stops).toHaveLength(1);
  });

  it('does not take GPS jitter while parked for a trip', () => {
    const track = new Track(T0).park(4 * 3600, { jitter: 60 });
    const { trips } = analyse(track);
    expect(trips).toHaveLength(0);
  });

  it('bounds trips by ignition where the tracker reports it', () => {
    const track = new Track(T0)
      .park(600, { ignition: false })
      .park(60, { ignition: true }) // ignition on, warming up a minute
      .drive(900, 50, 90, { ignition: true })
      .park(90, { ignition: true }) // arrived, engine still on for 90 s
      .park(600, { ignition: false });
    const { s, trips, stops } = analyse(track);
    expect(trips).toHaveLength(1);
    const [trip] = trips;
    // From the ignition-on edge to the ignition-off edge.
    expect(sec(s, trip?.start ?? 0)).toBe(610);
    expect(sec(s, trip?.end ?? 0)).toBe(1660);
    expect(s.ignition[trip?.end ?? 0]).toBe(0);
    expect(stops.map((stop) => stop.idle)).toEqual([0, 0]);
  });

  it('counts a long warm-up as idling at the stop, not as driving', () => {
    const track = new Track(T0)
      .park(300, { ignition: false })
      .park(600, { ignition: true })
      .drive(600, 50, 90, { ignition: true })
      .park(600, { ignition: false });
    const { s, trips, stops } = analyse(track);
    expect(trips).toHaveLength(1);
    expect(sec(s, trips[0]?.start ?? 0)).toBe(900);
    // The ignition came on between the fixes at 300 s and 310 s: idling from 310 s.
    expect(stops[0]?.idle).toBe(590);
  });

  it('treats a single far-off fix while parked as a spike, not a trip', () => {
    const track = new Track(T0).park(600);
    const spike = track.fixes[30];
    if (spike) spike.latitude += 400 / 111_320;
    expect(analyse(track).trips).toHaveLength(0);
    // Also from a tracker that reports no speed (the distance says it jumped).
    for (const fix of track.fixes) fix.speed = undefined;
    expect(analyse(track).trips).toHaveLength(0);
  });

  it('reads trips from sparse fixes (one every 5 minutes)', () => {
    const track = new Track(T0)
      .park(1800, { every: 300 })
      .drive(3600, 40, 90, { every: 300 })
      .park(1800, { every: 300 });
    const { trips } = analyse(track);
    expect(trips).toHaveLength(1);
  });
});

describe('a delivery with the engine off', () => {
  it('starts the next trip when the engine starts, not when it stopped', () => {
    const track = new Track(T0)
      .drive(600, 60, 90, { every: 30, ignition: true })
      .park(20, { every: 20, ignition: false })
      .park(860, { every: 860, ignition: false })
      .fix({ ignition: true })
      .drive(600, 60, 90, { every: 30, ignition: true });
    const { s, trips, stops } = analyse(track);
    expect(trips.map((t) => [sec(s, t.start), sec(s, t.end)])).toEqual([
      [0 + 30, 620],
      [1480, 2080],
    ]);
    expect(stops.find((stop) => sec(s, stop.start) === 620)).toBeTruthy();
  });
});
