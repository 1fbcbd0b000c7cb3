/**
 * The jump filter recovers from a wrong anchor (server/ingest/jump-votes.ts): JUMP_CONFIRMATIONS
 * refused fixes that agree with one another outvote an unsupported fix they jumped from (a new
 * tracker's bad first fix), and are stored, with no distance for the leg from it; an anchor on
 * a live track is not outvoted, and a lone wild fix stays refused, even sent again and again.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { JUMP_CONFIRMATIONS } from '../../server/ingest/jump-votes';
import type { Fix } from '../../server/ingest/queries/positions';
import { rowsOf } from '../../server/platform/db/client';
import type { LocationItem, Vehicle } from '../../src/contract';
import { as, backends, demoClients, useServer } from './harness';

const RECIFE = { latitude: -8.05, longitude: -34.9 };
const SAO_PAULO = { latitude: -23.55, longitude: -46.63 };

describe.each(await backends())('the jump filter on %s', (backend) => {
  const server = useServer(backend);
  const start = Date.now() - 3600_000;
  /** A fix `s` seconds after `start`, near `at` (moving north a little every second). */
  const fix = (s: number, at = RECIFE): Fix => ({
    fixTime: new Date(start + s * 1000),
    latitude: at.latitude + s * 0.00001,
    longitude: at.longitude,
    attributes: {},
  });

  async function tracker(identifier: string, plate: string) {
    const s = server();
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const v = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: identifier,
      plate,
      type: 'truck',
    });
    const t = await admin.call<{ id: string }>('POST', '/registros/tracker', {
      clientId: north,
      identifier,
      provider: 'rastro',
      vehicleId: v.body.id,
    });
    const rows = async () =>
      rowsOf<{ s: number; odometer: number }>(
        await s.deps.database.db.execute(sql`
          select ((extract(epoch from fix_time) * 1000 - ${start}) / 1000)::int as s, odometer
            from positions where tracker_id = ${t.body.id} order by fix_time`),
      );
    const stored = async () => (await rows()).map((r) => r.s);
    const last = async () => {
      const all = await admin.call<LocationItem[]>(
        'GET',
        `/registros/real-time/lastLocation?clientId=${north}`,
      );
      return all.body.find((x) => x.plate === plate);
    };
    return {
      accept: (fixes: Fix[]) => s.deps.pipeline.accept(identifier, fixes, 'osmand'),
      rows,
      stored,
      last,
    };
  }

  it('lets fixes that agree outvote a wrong first fix, and stores the ones it had refused', async () => {
    expect(JUMP_CONFIRMATIONS).toBe(3);
    const t = await tracker('jump-first', 'JMP1A11');
    // The tracker's first fix is 2,000 km away from where it is.
    expect(await t.accept([fix(0, SAO_PAULO)])).toMatchObject({ stored: 1, rejected: [] });
    expect(await t.accept([fix(10)])).toMatchObject({ stored: 0, rejected: ['impossible_jump'] });
    expect(await t.accept([fix(20)])).toMatchObject({ stored: 0, rejected: ['impossible_jump'] });
    const before = server().deps.pipeline.stats().stored;
    // The third that agrees: it is stored, and so are the two refused before it.
    expect(await t.accept([fix(30)])).toMatchObject({ stored: 1, rejected: [] });
    expect(server().deps.pipeline.stats().stored).toBe(before + 3);
    expect(await t.stored()).toEqual([0, 10, 20, 30]);
    expect((await t.last())?.latitude).toBeCloseTo(fix(30).latitude, 6);
    // The 2,000 km from the wrong fix are no distance driven; the 20 s after it are (~22 m).
    const odometers = (await t.rows()).map((r) => r.odometer);
    expect(odometers[1]).toBe(odometers[0]);
    expect(Number(odometers[3]) - Number(odometers[1])).toBeGreaterThan(20);
    expect(Number(odometers[3]) - Number(odometers[1])).toBeLessThan(25);
    // From there on the track goes on as usual.
    expect(await t.accept([fix(40)])).toMatchObject({ stored: 1, rejected: [] });
    expect(await t.stored()).toEqual([0, 10, 20, 30, 40]);
  });

  it('takes a black box message whose fixes outvote the anchor whole', async () => {
    const t = await tracker('jump-box', 'JMP2B22');
    await t.accept([fix(0, SAO_PAULO)]);
    const result = await t.accept([fix(10), fix(20), fix(30), fix(40)]);
    expect(result).toMatchObject({ stored: 4, rejected: [] });
    expect(await t.stored()).toEqual([0, 10, 20, 30, 40]);
  });

  it('keeps refusing a lone wild fix between good ones, and one sent again and again', async () => {
    const t = await tracker('jump-wild', 'JMP3C33');
    await t.accept([fix(0)]);
    expect(await t.accept([fix(10, SAO_PAULO)])).toMatchObject({ rejected: ['impossible_jump'] });
    expect(await t.accept([fix(20)])).toMatchObject({ stored: 1, rejected: [] });
    // Two wild fixes, a good one, two wild again: no three agree in a row.
    await t.accept([fix(30, SAO_PAULO)]);
    await t.accept([fix(40, SAO_PAULO)]);
    expect(await t.accept([fix(50)])).toMatchObject({ stored: 1, rejected: [] });
    await t.accept([fix(60, SAO_PAULO)]);
    // The same wild fix again and again (a device resending it) is one fix, not a majority.
    for (let i = 0; i < JUMP_CONFIRMATIONS + 1; i += 1)
      expect(await t.accept([fix(70, SAO_PAULO)])).toMatchObject({
        stored: 0,
        rejected: ['impossible_jump'],
      });
    expect(await t.stored()).toEqual([0, 20, 50]);
    expect((await t.last())?.latitude).toBeCloseTo(fix(50).latitude, 6);
  });

  it('does not let fixes that agree outvote an anchor on a live track', async () => {
    const t = await tracker('jump-live', 'JMP4D44');
    await t.accept([fix(0)]);
    await t.accept([fix(10)]);
    // Three wild fixes that agree with one another (a glitch, a spoofed device): refused.
    for (const s of [20, 30, 40])
      expect(await t.accept([fix(s, SAO_PAULO)])).toMatchObject({
        stored: 0,
        rejected: ['impossible_jump'],
      });
    expect(await t.accept([fix(50)])).toMatchObject({ stored: 1, rejected: [] });
    expect(await t.stored()).toEqual([0, 10, 50]);
  });

  it('outvotes only with fixes newer than the anchor, which then moves to them', async () => {
    const t = await tracker('jump-late', 'JMP5E55');
    await t.accept([fix(1000, SAO_PAULO)]);
    // A black box from before the wrong fix cannot outvote it (the newest fix would stay it).
    expect(await t.accept([fix(10), fix(20), fix(30)])).toMatchObject({ stored: 0 });
    await t.accept([fix(1010)]);
    await t.accept([fix(1020)]);
    expect(await t.accept([fix(1030)])).toMatchObject({ stored: 1, rejected: [] });
    expect((await t.last())?.latitude).toBeCloseTo(fix(1030).latitude, 6);
    expect(await t.accept([fix(1040)])).toMatchObject({ stored: 1, rejected: [] });
    expect(await t.stored()).toEqual([1000, 1010, 1020, 1030, 1040]);
  });

  it('forgets a refused fix the database cannot take, and recovers without it', async () => {
    const t = await tracker('jump-bad', 'JMP6F66');
    await t.accept([fix(0, SAO_PAULO)]);
    // A lone surrogate is no text PostgreSQL takes: the outvote holding it fails.
    await t.accept([{ ...fix(10), attributes: { note: '\ud800' } }]);
    await t.accept([fix(20)]);
    expect(await t.accept([fix(30)])).toMatchObject({ stored: 0, rejected: ['impossible_jump'] });
    await t.accept([fix(40)]);
    expect(await t.accept([fix(50)])).toMatchObject({ stored: 1, rejected: [] });
    expect(await t.stored()).toEqual([0, 30, 40, 50]);
    expect(await t.accept([fix(60)])).toMatchObject({ stored: 1, rejected: [] });
  });

  it('keeps the votes of a batch that failed for another reason, so the fix sent again outvotes', async () => {
    const t = await tracker('jump-lost', 'JMP7G77');
    const { db } = server().deps.database;
    await t.accept([fix(0, SAO_PAULO)]);
    await t.accept([fix(10)]);
    await t.accept([fix(20)]);
    // The database cancels the write of the outvoting batch (as a statement timeout would):
    // no data error, so nothing is forgotten and nothing of the batch is taken as done.
    await db.execute(sql`
      create function jump_lost_cancel() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from trackers where id = new.tracker_id and identifier = 'jump-lost')
        then raise exception 'cancelada' using errcode = '57014';
        end if;
        return new;
      end $$`);
    await db.execute(sql`
      create trigger jump_lost_cancel before insert on positions
        for each row execute function jump_lost_cancel()`);
    try {
      await expect(t.accept([fix(30)])).rejects.toThrow();
    } finally {
      await db.execute(sql`drop trigger jump_lost_cancel on positions`);
      await db.execute(sql`drop function jump_lost_cancel()`);
    }
    expect(await t.stored()).toEqual([0]);
    // The device sends it again: the same three still outvote the wrong first fix.
    expect(await t.accept([fix(30)])).toMatchObject({ stored: 1, rejected: [] });
    expect(await t.stored()).toEqual([0, 10, 20, 30]);
  });
});
