/**
 * A long query against a running server's database, and what it does to the event loop:
 * one tracker gets a month of fixes at one every 10 s (267,840 rows, written by the database
 * itself, not timed), then two reads of that month are timed while the event loop's longest
 * pause is recorded: a report-like daily summary (31 rows back) and the month's positions
 * themselves (every row back, through drizzle). While PGlite ran on the server's own thread
 * the pause was the whole query: ingest, the API and the live stream stood still.
 */
import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../server/platform/db/client';
import { positions } from '../server/schema';
import { withLoopWatch } from './loop-watch';

const DAYS = 31;

export async function benchLongQuery(db: Db, tracker: { id: string; clientId: string }) {
  const to = new Date();
  const from = new Date(to.getTime() - DAYS * 24 * 3600_000);
  await db.execute(sql`
    insert into positions (tracker_id, client_id, fix_time, latitude, longitude, speed)
    select ${tracker.id}::uuid, ${tracker.clientId}::uuid, t,
      -8.05 + 0.01 * sin(extract(epoch from t) / 3600), -34.9, 40
      from generate_series(${from.toISOString()}::timestamptz,
        ${to.toISOString()}::timestamptz - interval '1 second', interval '10 seconds') as t
    on conflict do nothing`);

  const summary = await withLoopWatch(() =>
    db.execute(sql`
      select date_trunc('day', fix_time) as day, count(*) as fixes, max(speed) as top_speed,
        sum(km) as km
      from (
        select fix_time, speed,
          111.2 * sqrt(power(latitude - lag(latitude) over w, 2)
            + power((longitude - lag(longitude) over w) * cos(radians(latitude)), 2)) as km
        from positions
        where tracker_id = ${tracker.id} and fix_time >= ${from.toISOString()}
          and fix_time < ${to.toISOString()}
        window w as (order by fix_time)
      ) steps
      group by 1 order by 1`),
  );
  const month = await withLoopWatch(() =>
    db
      .select({
        fixTime: positions.fixTime,
        latitude: positions.latitude,
        longitude: positions.longitude,
        speed: positions.speed,
      })
      .from(positions)
      .where(
        and(
          eq(positions.trackerId, tracker.id),
          gte(positions.fixTime, from),
          lt(positions.fixTime, to),
        ),
      )
      .orderBy(asc(positions.fixTime)),
  );
  console.log(`  consulta longa (um veículo, ${DAYS} dias):`);
  console.log(
    `    resumo diário: ${summary.ms.toFixed(0)} ms; event loop: maior pausa ${summary.pauseMs.toFixed(0)} ms`,
  );
  console.log(
    `    todas as posições (${month.result.length} linhas): ${month.ms.toFixed(0)} ms; event loop: maior pausa ${month.pauseMs.toFixed(0)} ms`,
  );
}
