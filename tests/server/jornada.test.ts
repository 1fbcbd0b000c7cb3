/**
 * The working-day engine on known days (São Paulo time, UTC−3): the driving of one driver by
 * RFID in two vehicles, continuous driving, the break within 6 h (4 h for passengers), the
 * split night rest (8 h + 3 h is valid, 7 h + 4 h is not), the meal interval and overtime,
 * with exact minutes.
 */
import { describe, expect, it } from 'vitest';
import {
  type DrivingSpan,
  drivingOfDriver,
  type EngineInput,
  type EngineMark,
  jornadaDays,
} from '../../server/jornada/engine';
import { detectTrips, emptySamples } from '../../server/reports/motion';

/** An instant in São Paulo time: '10 08:00' is 2026-11-10 08:00 (11:00 UTC). */
const at = (dayTime: string) => {
  const [day, time] = dayTime.split(' ');
  return Date.parse(`2026-11-${day}T${time}:00-03:00`);
};
const drive = (from: string, to: string, vehicleId = 'A'): DrivingSpan => ({
  start: at(from),
  end: at(to),
  vehicleId,
});
const mark = (kind: EngineMark['kind'], when: string): EngineMark => ({
  kind,
  at: at(when),
  source: 'motorista',
});

function run(input: Partial<EngineInput>, day = '2026-11-10') {
  const days = jornadaDays(
    {
      from: at('08 00:00'),
      until: at('12 00:00'),
      driving: [],
      marks: [],
      corrections: [],
      settings: { regime: 'cargo', overtimeLimitMinutes: 120 },
      ...input,
    },
    day,
    day,
  );
  const result = days[0];
  if (!result) throw new Error('no day');
  return result;
}
const rules = (d: ReturnType<typeof run>) => d.violations.map((v) => [v.rule, v.minutes]);

/** A vehicle's fixes each minute: standing with the ignition off, or at 60 km/h with it on. */
function samples(day: string, plan: { from: string; to: string; moving: boolean; tag?: string }[]) {
  const s = emptySamples();
  s.trackers.push('tracker');
  let lon = -46.6;
  for (const p of plan)
    for (let t = at(`${day} ${p.from}`); t < at(`${day} ${p.to}`); t += 60_000) {
      if (p.moving) lon += 0.01;
      s.time.push(t);
      s.lat.push(-23.5);
      s.lon.push(lon);
      s.speed.push(p.moving ? 60 : 0);
      s.course.push(90);
      s.ignition.push(p.moving ? 1 : 0);
      s.odometer.push(0);
      s.tracker.push(0);
      let r = -1;
      if (p.tag) {
        r = s.rfids.indexOf(p.tag);
        if (r < 0) r = s.rfids.push(p.tag) - 1;
      }
      s.rfid.push(r);
    }
  return s;
}

describe('jornada engine', () => {
  it('takes only the trips where the driver’s tag was read, in two vehicles', () => {
    // Vehicle A: the driver's tag from 08:00 to 10:00, then a trip with no tag read.
    const a = samples('10', [
      { from: '07:00', to: '08:01', moving: false },
      { from: '08:01', to: '10:00', moving: true, tag: 'TAG1' },
      { from: '10:00', to: '10:31', moving: false },
      { from: '10:31', to: '11:30', moving: true },
      { from: '11:30', to: '12:01', moving: false },
    ]);
    // Vehicle B: another driver's tag, then ours from 13:00 to 15:30.
    const b = samples('10', [
      { from: '09:00', to: '09:01', moving: false },
      { from: '09:01', to: '10:00', moving: true, tag: 'TAG2' },
      { from: '10:00', to: '13:01', moving: false },
      { from: '13:01', to: '15:30', moving: true, tag: 'TAG1' },
      { from: '15:30', to: '16:00', moving: false },
    ]);
    const driving = [
      ...drivingOfDriver(a, detectTrips(a), 'A', 'TAG1'),
      ...drivingOfDriver(b, detectTrips(b), 'B', 'TAG1'),
    ];
    expect(driving).toEqual([
      drive('10 08:00', '10 10:00', 'A'),
      drive('10 13:00', '10 15:30', 'B'),
    ]);
    const day = run({ driving });
    expect(day.totals).toEqual({
      worked: 270,
      driving: 270,
      otherWork: 0,
      overtime: 0,
      waiting: 0,
      meal: 0,
      night: 0,
    });
    expect(day.start).toBe(at('10 08:00'));
    expect(day.end).toBe(at('10 15:30'));
    expect(day.periods.filter((p) => p.kind === 'driving').map((p) => p.vehicleId)).toEqual([
      'A',
      'B',
    ]);
    expect(day.violations).toEqual([]);
  });

  it('flags 5 h 40 of continuous driving by 10 min, and not 5 h 30', () => {
    const over = run({ driving: [drive('10 06:00', '10 11:40')] });
    expect(over.violations).toEqual([
      { rule: 'continuous_driving', start: at('10 11:30'), end: at('10 11:40'), minutes: 10 },
    ]);
    expect(run({ driving: [drive('10 06:00', '10 11:30')] }).violations).toEqual([]);
    // A stop of 5 min does not break the stretch; one of 10 min does.
    expect(
      rules(run({ driving: [drive('10 06:00', '10 09:00'), drive('10 09:05', '10 11:40')] })),
    ).toEqual([['continuous_driving', 10]]);
    expect(
      rules(run({ driving: [drive('10 06:00', '10 09:00'), drive('10 09:10', '10 11:40')] })),
    ).toEqual([]);
  });

  it('wants 30 min of rest within 6 h of driving for cargo, 4 h for passengers', () => {
    // Three stretches of 2 h 30 with 10-min stops: 20 min of rest for 7 h 30 of driving.
    const driving = [
      drive('10 06:00', '10 08:30'),
      drive('10 08:40', '10 11:10'),
      drive('10 11:20', '10 13:50'),
    ];
    const cargo = run({
      driving,
      marks: [mark('meal_start', '10 14:00'), mark('meal_end', '10 15:00')],
    });
    expect(cargo.violations).toEqual([
      { rule: 'driving_break', start: at('10 12:20'), end: at('10 13:50'), minutes: 90 },
    ]);
    const bus = run({
      driving: [drive('10 06:00', '10 11:00')],
      settings: { regime: 'passageiros', overtimeLimitMinutes: 120 },
    });
    expect(bus.violations).toEqual([
      { rule: 'driving_break', start: at('10 10:00'), end: at('10 11:00'), minutes: 60 },
    ]);
  });

  it('accepts a night rest of 8 h + 3 h and refuses 7 h + 4 h', () => {
    const yesterday = [drive('09 14:00', '09 18:00'), drive('09 19:00', '09 22:00')];
    const day = (restStart: string, restEnd: string) =>
      run({
        driving: [...yesterday, drive('10 06:00', '10 10:00'), drive('10 13:00', '10 17:00')],
        marks: [
          mark('journey_start', '10 06:00'),
          mark('rest_start', restStart),
          mark('rest_end', restEnd),
          mark('journey_end', '10 22:00'),
        ],
      });
    const split = day('10 10:00', '10 13:00');
    expect(split.violations.filter((v) => v.rule.startsWith('daily_rest'))).toEqual([]);
    expect(split.totals.worked).toBe(13 * 60);
    const short = run({
      driving: [
        drive('09 14:00', '09 18:00'),
        drive('09 19:00', '09 23:00'),
        drive('10 06:00', '10 10:00'),
      ],
      marks: [mark('rest_start', '10 10:00'), mark('rest_end', '10 14:00')],
    });
    expect(short.violations.filter((v) => v.rule.startsWith('daily_rest'))).toEqual([
      { rule: 'daily_rest_first', start: at('09 23:00'), end: at('10 06:00'), minutes: 60 },
    ]);
    // 8 h, then 16 h of work with no rest: 3 h short of the 11 h.
    const none = run({
      driving: [...yesterday, drive('10 06:00', '10 10:00'), drive('10 12:00', '10 16:00')],
      marks: [mark('journey_start', '10 06:00'), mark('journey_end', '10 23:00')],
    });
    expect(none.violations.filter((v) => v.rule.startsWith('daily_rest'))).toEqual([
      { rule: 'daily_rest', start: at('09 22:00'), end: at('10 22:00'), minutes: 180 },
    ]);
  });

  it('counts overtime past 8 h, flags it past 2 h (not 4 h by agreement) and the meal', () => {
    const input = {
      driving: [drive('10 07:00', '10 11:00'), drive('10 13:00', '10 17:00')],
      marks: [
        mark('journey_start', '10 06:00'),
        mark('meal_start', '10 12:00'),
        mark('meal_end', '10 13:00'),
        mark('wait_start', '10 17:00'),
        mark('wait_end', '10 17:45'),
        mark('journey_end', '10 18:45'),
      ],
    };
    const day = run(input);
    expect(day.totals).toEqual({
      worked: 660,
      driving: 480,
      otherWork: 180,
      overtime: 180,
      waiting: 45,
      meal: 60,
      night: 0,
    });
    // 10 h of work reached at 17:45 + 15 min of other work.
    expect(day.violations).toEqual([
      { rule: 'overtime', start: at('10 18:45') - 60 * 60_000, end: at('10 18:45'), minutes: 60 },
    ]);
    const agreed = run({ ...input, settings: { regime: 'cargo', overtimeLimitMinutes: 240 } });
    expect(agreed.violations).toEqual([]);
    // With no meal, the 1 h interval is missing.
    const noMeal = run({
      ...input,
      marks: input.marks.filter((m) => !m.kind.startsWith('meal')),
    });
    expect(rules(noMeal)).toContainEqual(['meal_break', 60]);
    // A lunch of 56 min is within the 5 min of variation the CLT lets go; one of 54 is not.
    const lunch = (end: string) =>
      rules(
        run({
          ...input,
          marks: input.marks.map((m) => (m.kind === 'meal_end' ? mark('meal_end', end) : m)),
          settings: { regime: 'cargo', overtimeLimitMinutes: 240 },
        }),
      );
    expect(lunch('10 12:56')).toEqual([]);
    expect(lunch('10 12:54')).toEqual([['meal_break', 6]]);
  });

  it('counts night hours between 22:00 and 05:00', () => {
    const day = run({ driving: [drive('10 20:00', '11 01:00')] }, '2026-11-10');
    expect(day.totals.night).toBe(180);
    expect(day.totals.driving).toBe(300);
    // The day's timeline ends at midnight; the journey's totals stay with the day it began.
    expect(day.periods[day.periods.length - 1]?.end).toBe(at('11 00:00'));
  });
});
