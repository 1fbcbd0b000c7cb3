/**
 * While the database is behind (INGEST_MAX_BACKLOG fixes waiting to be written), the HTTP
 * sources are told to come back (503, Retry-After) instead of queueing more in memory; what
 * was queued is written when the database catches up, and they are taken again.
 */
import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOsmand } from '../../server/ingest/osmand';
import { BACKLOG_RETRY_SECONDS, BACKLOGGED } from '../../server/ingest/pipeline';
import type { Fix } from '../../server/ingest/queries/positions';
import { rowsOf } from '../../server/platform/db/client';
import { createLogger } from '../../server/platform/log';
import { createTracker, DEVICE_PASSWORD } from './devices';
import { as, demoClients, type ErrorBody, everyBackend, jsonOf, useServer } from './harness';

const SECRET = 'segredo-do-fluxo-flespi-0123456789';

describe.each(await everyBackend())('ingest backlog on %s', (backend) => {
  const server = useServer(backend, () => ({
    FLESPI_STREAM_SECRET: SECRET,
    INGEST_MAX_BACKLOG: '100',
  }));
  let listener: Server & { port: number };

  beforeAll(async () => {
    const s = server();
    listener = await startOsmand({
      port: 0,
      host: '127.0.0.1',
      pipeline: s.deps.pipeline,
      log: createLogger('silent'),
    });
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    for (const identifier of ['fila-1', 'fila-2'])
      await createTracker(admin, { clientId: north, identifier, protocol: 'osmand' });
    await createTracker(admin, { clientId: north, identifier: 'fila-3', protocol: 'flespi' });
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  const osmand = (identifier: string, at: number) =>
    fetch(
      `http://127.0.0.1:${listener.port}/?password=${DEVICE_PASSWORD}&id=${identifier}&lat=-8.05&lon=-34.9&timestamp=${Math.floor(at / 1000)}`,
    );
  const flespi = (at: number) =>
    server().request('/tech-integracao/v1/flespi/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` },
      body: JSON.stringify([
        {
          ident: 'fila-3',
          timestamp: at / 1000,
          'position.latitude': -8.05,
          'position.longitude': -34.9,
        },
      ]),
    });
  const fixAt = (time: number, i: number): Fix => ({
    fixTime: new Date(time),
    latitude: -8.05 - i * 0.00001,
    longitude: -34.9,
    attributes: {},
  });
  const count = async (identifier: string) => {
    const [row] = rowsOf<{ n: number }>(
      await server().deps.database.db.execute(sql`
        select count(*)::int as n from positions p join trackers t on t.id = p.tracker_id
         where t.identifier = ${identifier}`),
    );
    return row?.n;
  };

  it('answers 503 while the database is behind, and stores what it had taken', async () => {
    const s = server();
    const { pipeline } = s.deps;
    const at = Date.now() - 3600_000;
    // Another transaction holds the positions: the batch being written waits for it.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = s.deps.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table positions in exclusive mode`);
      locked();
      await released;
    });
    await holding;
    try {
      // One fix in the batch being written (it waits for the lock), 150 behind it: more than
      // the backlog allows. They wait for it: one batch at a time on PGlite, and on PostgreSQL
      // a batch beside another starts only with MIN_EXTRA_BATCH (200) fixes waiting.
      const first = pipeline.accept('fila-1', [fixAt(at, 0)], 'osmand');
      await new Promise((resolve) => setImmediate(resolve));
      const queued = pipeline.accept(
        'fila-2',
        Array.from({ length: 150 }, (_, i) => fixAt(at + (i + 1) * 1000, i)),
        'osmand',
      );
      expect(pipeline.backlogged()).toBe(true);

      const refused = await osmand('fila-1', at + 1000);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe(String(BACKLOG_RETRY_SECONDS));
      expect(await refused.text()).toBe(BACKLOGGED);
      const stream = await flespi(at);
      expect(stream.status).toBe(503);
      expect(stream.headers.get('retry-after')).toBe(String(BACKLOG_RETRY_SECONDS));
      expect((await jsonOf<ErrorBody>(stream)).message).toBe(
        'Servidor ocupado: tente novamente em instantes',
      );
      release();
      await holder;
      expect(await first).toMatchObject({ status: 'ok', stored: 1 });
      expect(await queued).toMatchObject({ status: 'ok', stored: 150 });
    } finally {
      release();
      await holder;
    }
    expect(pipeline.backlogged()).toBe(false);
    // Taken again: the fix refused before is stored when it comes back.
    expect((await osmand('fila-1', at + 1000)).status).toBe(200);
    expect((await flespi(at)).status).toBe(200);
    expect(await count('fila-1')).toBe(2);
    expect(await count('fila-2')).toBe(150);
    expect(await count('fila-3')).toBe(1);
  }, 30_000);
});
