/**
 * The live stream's event ids: every change of a last location has its own, increasing id,
 * so a client that resumes from the id of the last event it got (Last-Event-ID) receives the
 * rest of a batch that was committed at once, and nothing twice.
 */

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pruneLocationBatches } from '../../server/ingest/queries/positions';
import { rowsOf } from '../../server/platform/db/client';
import type { LocationItem, Vehicle } from '../../src/contract';
import { textUntilReady } from './fixtures/live-stream';
import { as, demoClients, everyBackend, type TestServer, useServer } from './harness';

/** The location events of a stream, read until its 'ready' event. */
async function backlog(s: TestServer, token: string, headers: Record<string, string> = {}) {
  const res = await s.request('/registros/real-time/stream', { token, headers });
  expect(res.status).toBe(200);
  const text = await textUntilReady(res);
  return [...text.matchAll(/event: location\ndata: (.*)\nid: (\d+)\n/g)].map((m) => ({
    id: m[2] as string,
    item: JSON.parse(m[1] as string) as { plate: string; eventId: string; receivedAt: string },
  }));
}

/** A vehicle of North per plate, each with tracker `${prefix}-${i}`; the admin's session. */
async function vehiclesWithTrackers(s: TestServer, prefix: string, plates: string[]) {
  const { north } = await demoClients(s);
  const admin = await as(s, 'admin@rastro.demo');
  for (const [i, plate] of plates.entries()) {
    const vehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: plate,
      plate,
      type: 'car',
    });
    await admin.call('POST', '/registros/tracker', {
      clientId: north,
      identifier: `${prefix}-${i}`,
      provider: 'rastro',
      vehicleId: vehicle.body.id,
    });
  }
  return admin;
}

describe.each(await everyBackend())('live stream event ids on %s', (backend) => {
  const server = useServer(backend);

  it('resumes in the middle of a batch without losing or repeating a change', async () => {
    const s = server();
    const plates = ['EVT1A11', 'EVT2B22', 'EVT3C33', 'EVT4D44', 'EVT5E55'];
    const admin = await vehiclesWithTrackers(s, 'evt', plates);
    const start = await backlog(s, admin.accessToken, { 'last-event-id': '0' });
    const before = start.at(-1)?.id ?? '0';
    // One group commit: five changes with the same reception time.
    const at = new Date(Date.now() - 2000);
    await Promise.all(
      plates.map((_, i) =>
        s.deps.pipeline.accept(`evt-${i}`, [
          { fixTime: at, latitude: -8 - i / 100, longitude: -34.9, attributes: {} },
        ]),
      ),
    );
    const batch = await backlog(s, admin.accessToken, { 'last-event-id': before });
    expect(batch.map((e) => e.item.plate).sort()).toEqual(plates);
    expect(new Set(batch.map((e) => e.item.receivedAt)).size).toBe(1);
    const ids = batch.map((e) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(ids).size).toBe(5);
    expect(batch.every((e) => e.id === e.item.eventId)).toBe(true);

    // The connection dropped after the second event: the other three come on resume.
    const rest = await backlog(s, admin.accessToken, { 'last-event-id': batch[1]?.id ?? '' });
    expect(rest.map((e) => e.item.plate)).toEqual(batch.slice(2).map((e) => e.item.plate));
    // lastLocation carries the same ids, for a full read to resume from.
    const all = (await admin.call<LocationItem[]>('GET', '/registros/real-time/lastLocation')).body;
    for (const event of batch)
      expect(all.find((i) => i.plate === event.item.plate)?.eventId).toBe(event.id);
  });

  it('resumes from before the changes still listed: every change since, by the rows own ids', async () => {
    const s = server();
    const plates = ['PRN1A11', 'PRN2B22', 'PRN3C33'];
    const admin = await vehiclesWithTrackers(s, 'prn', plates);
    const before = (await backlog(s, admin.accessToken, { 'last-event-id': '0' })).at(-1)?.id;
    const base = Date.now() - 60_000;
    // Three batches, one tracker each, then the index forgets all but the newest.
    for (const [i] of plates.entries())
      await s.deps.pipeline.accept(`prn-${i}`, [
        { fixTime: new Date(base + i * 1000), latitude: -8.1, longitude: -34.9, attributes: {} },
      ]);
    const { db } = s.deps.database;
    expect(await pruneLocationBatches(db, 0)).toBeGreaterThan(0);
    const listed = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from location_batches`),
    );
    expect(listed[0]?.n).toBe(1);

    const all = await backlog(s, admin.accessToken, { 'last-event-id': before ?? '0' });
    expect(all.map((e) => e.item.plate)).toEqual(plates);
    // From an id still listed: only what came after it.
    const rest = await backlog(s, admin.accessToken, { 'last-event-id': all[1]?.id ?? '' });
    expect(rest.map((e) => e.item.plate)).toEqual(['PRN3C33']);
    // And the next change is found through the index again.
    await s.deps.pipeline.accept('prn-0', [
      { fixTime: new Date(base + 5000), latitude: -8.1001, longitude: -34.9, attributes: {} },
    ]);
    const next = await backlog(s, admin.accessToken, { 'last-event-id': all[2]?.id ?? '' });
    expect(next.map((e) => e.item.plate)).toEqual(['PRN1A11']);
  });

  it('sends every last location again to an id it never gave (a database numbered anew)', async () => {
    const s = server();
    const plates = ['NEW1A11', 'NEW2B22'];
    const admin = await vehiclesWithTrackers(s, 'new', plates);
    const at = new Date(Date.now() - 5000);
    for (const [i] of plates.entries())
      await s.deps.pipeline.accept(`new-${i}`, [
        { fixTime: at, latitude: -8.2, longitude: -34.9, attributes: {} },
      ]);
    const newest = (await backlog(s, admin.accessToken, { 'last-event-id': '0' })).at(-1)?.id;
    // Before, the stream waited for ids past this one and sent nothing, for good.
    const ahead = await backlog(s, admin.accessToken, { 'last-event-id': '999999999999' });
    expect(ahead.map((e) => e.item.plate)).toEqual(expect.arrayContaining(plates));
    expect(ahead.at(-1)?.id).toBe(newest);
    // However long (past 15 digits a number keeps only its first ones).
    const long = await backlog(s, admin.accessToken, { 'last-event-id': '9'.repeat(19) });
    expect(long.at(-1)?.id).toBe(newest);
    const res = await s.request('/registros/real-time/stream', {
      token: admin.accessToken,
      headers: { 'last-event-id': '9'.repeat(41) },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Last-Event-ID inválido: use o id de um evento recebido',
    );
  });
});
