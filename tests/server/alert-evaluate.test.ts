/**
 * The evaluation of one vehicle's fixes (server/alerts/evaluate.ts), driven directly: each
 * geofence rule kind with its interval in São Paulo time, across midnight; hysteresis against
 * a track zig-zagging on a border; overspeed episodes and a geofence's speed limit; thresholds
 * as edges; schedules.
 */
import { describe, expect, it } from 'vitest';
import {
  type CompiledAssociation,
  type CompiledRule,
  type EvalFix,
  evaluate,
  type VehicleContext,
  type VehicleState,
} from '../../server/alerts/evaluate';
import { GeofenceIndex } from '../../server/geofences/spatial-index';
import type { AlertType, RestrictionType } from '../../src/contract';
import { destination, type Position } from '../../src/lib/geo';
import { localTime, withinWindow } from '../../src/lib/schedule';

const CENTER: Position = [-34.8811, -8.0539];
/** A depot: a 300 m circle. */
const depot = new GeofenceIndex(
  [
    {
      id: 'depot',
      name: 'Garagem',
      speedLimit: 20,
      shape: { kind: 'circle', center: CENTER, radius: 300 },
    },
  ],
  25,
);
const inside = CENTER;
const outside = destination(CENTER, 90, 1000);

function rule(
  type: AlertType,
  params: Record<string, unknown> = {},
  extra: Partial<CompiledRule> = {},
): CompiledRule {
  return {
    id: `r-${type}`,
    name: type,
    type,
    params,
    schedule: null,
    emailDelivery: '',
    geofenceIds: [],
    ...extra,
  };
}

function context(rules: CompiledRule[], associations: CompiledAssociation[] = []): VehicleContext {
  return { vehicleId: 'v1', clientId: 'c1', rules, associations, index: depot, hysteresis: 25 };
}

/** São Paulo local time (UTC−3) as an instant: '2026-03-02T22:30' → ms. */
const local = (text: string) => Date.parse(`${text}:00-03:00`);

function fix(at: number, where: Position, extra: Partial<EvalFix> = {}): EvalFix {
  return {
    fixTime: at,
    receivedAt: at + 1000,
    longitude: where[0],
    latitude: where[1],
    attributes: {},
    ...extra,
  };
}

/** Runs fixes through a fresh state; returns the types raised, with their local times. */
function run(ctx: VehicleContext, fixes: EvalFix[], state: VehicleState = {}) {
  return fixes.flatMap((f) =>
    evaluate(state, f, ctx).map(
      (a) => `${a.type}@${new Date(a.fix.fixTime - 3 * 3600_000).toISOString().slice(5, 16)}`,
    ),
  );
}

describe('São Paulo windows', () => {
  it('knows the local weekday and time', () => {
    // 2026-03-02 is a Monday.
    expect(localTime(local('2026-03-02T22:30'))).toEqual({ weekday: 1, minutes: 22 * 60 + 30 });
    expect(localTime(local('2026-03-03T00:10'))).toEqual({ weekday: 2, minutes: 10 });
  });

  it('crosses midnight: the window belongs to the day it starts', () => {
    const mondayNight = { weekdays: [1], startTime: '22:00', endTime: '06:00' };
    expect(withinWindow(mondayNight, local('2026-03-02T21:59'))).toBe(false);
    expect(withinWindow(mondayNight, local('2026-03-02T22:00'))).toBe(true);
    expect(withinWindow(mondayNight, local('2026-03-03T05:59'))).toBe(true);
    expect(withinWindow(mondayNight, local('2026-03-03T06:00'))).toBe(false);
    // Tuesday night is not Monday's window.
    expect(withinWindow(mondayNight, local('2026-03-03T23:00'))).toBe(false);
    // Sunday night → Monday morning is not either.
    expect(withinWindow(mondayNight, local('2026-03-02T01:00'))).toBe(false);
  });
});

describe('geofence rule kinds, with intervals across midnight', () => {
  const night = { weekdays: [1], startTime: '22:00', endTime: '06:00' };
  const kinds = (kind: RestrictionType, withWindow: boolean) =>
    context(
      [rule('GEOFENCE_ENTER'), rule('GEOFENCE_EXIT')],
      [{ id: 'a1', geofenceId: 'depot', kind, window: withWindow ? night : null }],
    );

  it('ALWAYS_INSIDE: leaving raises GEOFENCE_EXIT, at any hour, once per exit', () => {
    const raised = run(kinds('ALWAYS_INSIDE', false), [
      fix(local('2026-03-02T12:00'), inside),
      fix(local('2026-03-02T12:01'), outside),
      fix(local('2026-03-02T12:02'), outside),
      fix(local('2026-03-02T12:03'), inside),
      fix(local('2026-03-03T03:00'), outside),
    ]);
    expect(raised).toEqual(['GEOFENCE_EXIT@03-02T12:01', 'GEOFENCE_EXIT@03-03T03:00']);
  });

  it('ALWAYS_OUTSIDE: entering raises GEOFENCE_ENTER', () => {
    const raised = run(kinds('ALWAYS_OUTSIDE', false), [
      fix(local('2026-03-02T12:00'), outside),
      fix(local('2026-03-02T12:05'), inside),
      fix(local('2026-03-02T12:06'), inside),
    ]);
    expect(raised).toEqual(['GEOFENCE_ENTER@03-02T12:05']);
  });

  it('INSIDE_INTERVAL (the depot at night): outside during the interval raises GEOFENCE_EXIT', () => {
    const raised = run(kinds('INSIDE_INTERVAL', true), [
      // Out by day: allowed.
      fix(local('2026-03-02T18:00'), outside),
      // Still out when Monday's night starts: raised at the first fix in the interval.
      fix(local('2026-03-02T22:05'), outside),
      fix(local('2026-03-02T23:00'), outside),
      // Back in after midnight, then out again before 06:00 on Tuesday: raised again.
      fix(local('2026-03-03T01:00'), inside),
      fix(local('2026-03-03T02:00'), outside),
      // Tuesday day and Tuesday night are not in the interval (Monday only).
      fix(local('2026-03-03T07:00'), inside),
      fix(local('2026-03-03T23:00'), outside),
    ]);
    expect(raised).toEqual(['GEOFENCE_EXIT@03-02T22:05', 'GEOFENCE_EXIT@03-03T02:00']);
  });

  it('OUTSIDE_INTERVAL: inside during the interval raises GEOFENCE_ENTER, across midnight', () => {
    const raised = run(kinds('OUTSIDE_INTERVAL', true), [
      fix(local('2026-03-02T21:00'), outside),
      fix(local('2026-03-02T21:30'), inside),
      fix(local('2026-03-02T21:45'), outside),
      fix(local('2026-03-03T00:30'), inside),
      fix(local('2026-03-03T06:30'), inside),
    ]);
    expect(raised).toEqual(['GEOFENCE_ENTER@03-03T00:30']);
  });

  it('an association whose rule kind does not match a rule raises nothing', () => {
    const ctx = context(
      [rule('GEOFENCE_ENTER')],
      [{ id: 'a1', geofenceId: 'depot', kind: 'ALWAYS_INSIDE', window: null }],
    );
    expect(
      run(ctx, [fix(local('2026-03-02T12:00'), inside), fix(local('2026-03-02T12:05'), outside)]),
    ).toEqual([]);
  });
});

describe('hysteresis at a border', () => {
  const ctx = context(
    [
      rule('GEOFENCE_ENTER', { geofenceIds: ['depot'] }),
      rule('GEOFENCE_EXIT', { geofenceIds: ['depot'] }),
    ],
    [],
  );
  ctx.rules = ctx.rules.map((r) => ({ ...r, geofenceIds: ['depot'] }));

  it('a track zig-zagging on the border raises one alert', () => {
    const at = (m: number) => local('2026-03-02T12:00') + m * 10_000;
    // 5 m inside and 5 m outside the 300 m circle, alternating, after a clear entry.
    const near = (metres: number) => destination(CENTER, 90, metres);
    const raised = run(ctx, [
      fix(at(0), outside),
      fix(at(1), inside),
      ...Array.from({ length: 20 }, (_, i) => fix(at(2 + i), near(i % 2 === 0 ? 305 : 295))),
    ]);
    expect(raised).toEqual(['GEOFENCE_ENTER@03-02T12:00']);
  });

  it('two consecutive fixes across a border confirm a crossing even close to it', () => {
    const at = (m: number) => local('2026-03-02T12:00') + m * 10_000;
    const near = (metres: number) => destination(CENTER, 90, metres);
    const raised = run(ctx, [fix(at(0), inside), fix(at(1), near(310)), fix(at(2), near(312))]);
    expect(raised).toEqual(['GEOFENCE_EXIT@03-02T12:00']);
  });
});

describe('overspeed, ignition and thresholds', () => {
  it('raises once per episode after the minimum duration, with the tolerance', () => {
    const ctx = context([
      rule('OVERSPEED', { speedLimit: 80, tolerancePercent: 10, minDurationSeconds: 30 }),
    ]);
    const at = (s: number) => local('2026-03-02T12:00') + s * 1000;
    const raised = run(ctx, [
      fix(at(0), outside, { speed: 87 }), // within the tolerance (88)
      fix(at(10), outside, { speed: 95 }),
      fix(at(30), outside, { speed: 96 }),
      fix(at(40), outside, { speed: 99 }), // 30 s above: raised
      fix(at(50), outside, { speed: 101 }),
      fix(at(60), outside, { speed: 70 }), // episode over
      fix(at(70), outside, { speed: 120 }),
      fix(at(100), outside, { speed: 120 }),
    ]);
    expect(raised).toEqual(['OVERSPEED@03-02T12:00', 'OVERSPEED@03-02T12:01']);
  });

  it("a geofence's speed limit applies inside it", () => {
    const ctx = context([rule('OVERSPEED', { speedLimit: 80 })]);
    const at = (s: number) => local('2026-03-02T12:00') + s * 1000;
    const state: VehicleState = {};
    expect(run(ctx, [fix(at(0), inside, { speed: 30 })], state)).toEqual(['OVERSPEED@03-02T12:00']);
    expect(run(ctx, [fix(at(10), outside, { speed: 30 })], state)).toEqual([]);
  });

  it('ignition edges between fixes that carry it; input 1 turning on', () => {
    const ctx = context([rule('IGNITION_ON'), rule('IGNITION_OFF'), rule('DIN1')]);
    const at = (s: number) => local('2026-03-02T12:00') + s * 1000;
    const raised = run(ctx, [
      fix(at(0), outside, { ignition: true }),
      fix(at(10), outside, {}),
      fix(at(20), outside, { ignition: false, attributes: { din1: false } }),
      fix(at(30), outside, { ignition: false, attributes: { din1: true } }),
      fix(at(40), outside, { ignition: true, attributes: { din1: true } }),
    ]);
    expect(raised).toEqual([
      'IGNITION_OFF@03-02T12:00',
      'DIN1@03-02T12:00',
      'IGNITION_ON@03-02T12:00',
    ]);
  });

  it('thresholds raise on crossing, not on every fix across', () => {
    const ctx = context([
      rule('HIGH_ENGINE_TEMP', { threshold: 105 }),
      rule('DEVICE_POWER_DISCONNECTED', { threshold: 9 }),
    ]);
    const at = (s: number) => local('2026-03-02T12:00') + s * 1000;
    const raised = run(ctx, [
      fix(at(0), outside, { attributes: { engineTemp: 90, power: 12.5 } }),
      fix(at(10), outside, { attributes: { engineTemp: 110, powerCut: true } }),
      fix(at(20), outside, { attributes: { engineTemp: 111, power: 0.2 } }),
      fix(at(30), outside, { attributes: { engineTemp: 95, power: 12.1 } }),
      fix(at(40), outside, { attributes: { engineTemp: 107, power: 12.1 } }),
    ]);
    expect(raised).toEqual([
      'HIGH_ENGINE_TEMP@03-02T12:00',
      'DEVICE_POWER_DISCONNECTED@03-02T12:00',
      'HIGH_ENGINE_TEMP@03-02T12:00',
    ]);
  });

  it("a rule's schedule decides when alerts are raised (weekday nights here)", () => {
    const schedule = { weekdays: [1, 2, 3, 4, 5], startTime: '20:00', endTime: '05:00' };
    const ctx = context([rule('IGNITION_ON', {}, { schedule })]);
    const raised = run(ctx, [
      fix(local('2026-03-02T12:00'), outside, { ignition: false }),
      fix(local('2026-03-02T12:10'), outside, { ignition: true }), // daytime: no
      fix(local('2026-03-02T23:00'), outside, { ignition: false }),
      fix(local('2026-03-03T02:00'), outside, { ignition: true }), // Monday's night: yes
      fix(local('2026-03-07T23:00'), outside, { ignition: false }),
      fix(local('2026-03-08T01:00'), outside, { ignition: true }), // Saturday's night: no
    ]);
    expect(raised).toEqual(['IGNITION_ON@03-03T02:00']);
  });

  it('marks alerts of fixes received more than 15 minutes late', () => {
    const ctx = context([rule('IGNITION_ON')]);
    const state: VehicleState = {};
    const t = local('2026-03-02T12:00');
    evaluate(state, fix(t, outside, { ignition: false }), ctx);
    const [alert] = evaluate(
      state,
      { ...fix(t + 1000, outside, { ignition: true }), receivedAt: t + 20 * 60_000 },
      ctx,
    );
    expect(alert?.late).toBe(true);
  });
});

describe('fuel taken while parked', () => {
  const minute = 60_000;
  const night = local('2026-03-02T22:00');
  /** Parked at the depot, engine off, one reading every 5 minutes. */
  const parked = (i: number, fuel: Record<string, number>, extra: Partial<EvalFix> = {}) =>
    fix(night + i * 5 * minute, inside, {
      ignition: false,
      speed: 0,
      attributes: fuel,
      ...extra,
    });
  const drop = context([rule('FUEL_DROP', { minDropLiters: 20, minDropPercent: 10 })]);

  it('raises once for 40 litres gone with the engine off, seen twice', () => {
    const state: VehicleState = {};
    const alerts = [200, 199, 198, 160, 158, 157, 150].flatMap((litres, i) =>
      evaluate(state, parked(i, { fuelLiters: litres }), drop),
    );
    expect(alerts.map((a) => [a.type, a.details])).toEqual([
      ['FUEL_DROP', { drop: 42, from: 200, to: 158, unit: 'l' }],
    ]);
  });

  it('raises nothing for a refuel with the engine off, and measures from the new level', () => {
    const refuel = [80, 80, 120, 160, 200, 199];
    expect(
      run(
        drop,
        refuel.map((litres, i) => parked(i, { fuelLiters: litres })),
      ),
    ).toEqual([]);
    const state: VehicleState = {};
    const after = [...refuel, 175, 170].flatMap((litres, i) =>
      evaluate(state, parked(i, { fuelLiters: litres }), drop),
    );
    expect(after.map((a) => a.details.from)).toEqual([200]);
  });

  it('takes one noisy reading for what it is', () => {
    expect(
      run(
        drop,
        [70, 45, 69, 70].map((percent, i) => parked(i, { fuelLevel: percent })),
      ),
    ).toEqual([]);
  });

  it('forgets the stop when the vehicle drives or the engine runs', () => {
    // Burning 30 litres on the road, with stops in between, is no theft.
    const day = [
      parked(0, { fuelLiters: 200 }),
      parked(1, { fuelLiters: 200 }, { ignition: true, speed: 60 }),
      parked(2, { fuelLiters: 185 }),
      parked(3, { fuelLiters: 185 }, { ignition: true, speed: 0 }),
      parked(4, { fuelLiters: 170 }),
      parked(5, { fuelLiters: 170 }),
    ];
    expect(run(drop, day)).toEqual([]);
  });

  it('reads percent on a sensor without litres', () => {
    const state: VehicleState = {};
    const alerts = [60, 60, 45, 44].flatMap((percent, i) =>
      evaluate(state, parked(i, { fuelLevel: percent }), drop),
    );
    expect(alerts.map((a) => a.details)).toEqual([{ drop: 16, from: 60, to: 44, unit: '%' }]);
  });
});

describe('fuel taken again after a refuel', () => {
  it('raises for each theft of a truck that stays parked, refuelled in between', () => {
    const ctx = context([rule('FUEL_DROP', { minDropLiters: 20 })]);
    const state: VehicleState = {};
    const night = local('2026-03-03T20:00');
    const litres = [300, 300.4, 255, 254.6, 255, 300.2, 299.8, 255.2, 255];
    const alerts = litres.flatMap((value, i) =>
      evaluate(
        state,
        fix(night + i * 300_000, inside, {
          ignition: false,
          speed: 0,
          attributes: { fuelLiters: value },
        }),
        ctx,
      ),
    );
    expect(alerts.map((a) => [a.details.from, a.details.to])).toEqual([
      [300.4, 254.6],
      [300.2, 255],
    ]);
  });
});
