/**
 * Retention of positions (POSITION_RETENTION_MONTHS): whole months past the configured age
 * are dropped with their partitions, old rows of the default partition are deleted, newer
 * months and last locations stay, and two processes applying it at once do it once.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dropExpiredPositions, retentionCutoff } from '../../server/ingest/queries/retention';
import { rowsOf } from '../../server/platform/db/client';
import { ensurePartitions } from '../../server/platform/db/partitions';
import { everyBackend, useServer } from './harness';

describe('the retention cutoff', () => {
  it('counts whole months back from now', () => {
    expect(retentionCutoff(12, new Date('2026-11-22T10:00:00Z')).toISOString()).toBe(
      '2025-11-22T10:00:00.000Z',
    );
    expect(retentionCutoff(1, new Date('2026-03-31T00:00:00Z')).toISOString()).toBe(
      '2026-03-03T00:00:00.000Z',
    );
  });
});

describe.each(await everyBackend())('position retention on %s', (backend) => {
  const server = useServer(backend, () => ({ OSMAND_PORT: 'off' }));

  it('drops the months past the age, keeps the rest, and runs once across processes', async () => {
    const s = server();
    const { db } = s.deps.database;
    const now = new Date('2026-11-22T12:00:00Z');
    // Partitions for January 2025 onwards, as a server running since then made them.
    for (let month = 0; month < 23; month += 1)
      await ensurePartitions(db, new Date(Date.UTC(2025, month, 15)), 0);
    const tracker = rowsOf<{ id: string; client_id: string }>(
      await db.execute(sql`
        insert into trackers (client_id, identifier, provider)
        select id, 'retencao-1', 'rastro' from clients limit 1
        returning id, client_id`),
    )[0];
    if (!tracker) throw new Error('no tracker');
    const fix = (iso: string) => sql`(${tracker.id}::uuid, ${tracker.client_id}::uuid,
      ${iso}::timestamptz, -8.05, -34.9)`;
    await db.execute(sql`
      insert into positions (tracker_id, client_id, fix_time, latitude, longitude) values
      ${fix('2024-06-10T00:00:00Z')}, ${fix('2025-01-20T00:00:00Z')},
      ${fix('2025-10-31T23:59:59Z')}, ${fix('2025-11-01T00:00:00Z')},
      ${fix('2026-11-20T00:00:00Z')}`);
    await db.execute(sql`
      insert into last_locations (tracker_id, client_id, fix_time, received_at, latitude,
        longitude) values (${tracker.id}, ${tracker.client_id}, '2024-06-10T00:00:00Z',
        '2024-06-10T00:00:00Z', -8.05, -34.9)`);

    // Two processes' rounds at once: one drops, the other finds nothing left (or skips).
    const rounds = await Promise.all([
      dropExpiredPositions(db, 12, now),
      dropExpiredPositions(db, 12, now),
    ]);
    const dropped = rounds.flatMap((r) => r.dropped);
    // Every month that ended by 2025-11-22 goes: January to October 2025.
    expect(dropped.sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `positions_2025_${String(i + 1).padStart(2, '0')}`),
    );
    expect(rounds.reduce((n, r) => n + r.deleted, 0)).toBe(1);

    const left = rowsOf<{ fix_time: string }>(
      await db.execute(
        sql`select fix_time::text from positions where tracker_id = ${tracker.id} order by 1`,
      ),
    ).map((r) => new Date(r.fix_time).toISOString());
    expect(left).toEqual(['2025-11-01T00:00:00.000Z', '2026-11-20T00:00:00.000Z']);
    const [found] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from last_locations where tracker_id = ${tracker.id}`,
      ),
    );
    expect(found?.n).toBe(1);
    const [gone] = rowsOf<{ found: boolean }>(
      await db.execute(sql`select to_regclass('positions_2025_10') is not null as found`),
    );
    expect(gone?.found).toBe(false);

    // Nothing more to do at the next round; and nothing at all with retention off.
    expect(await dropExpiredPositions(db, 12, now)).toEqual({
      dropped: [],
      deleted: 0,
      busy: false,
    });
    expect(await dropExpiredPositions(db, 0, now)).toEqual({
      dropped: [],
      deleted: 0,
      busy: false,
    });
  });
});
