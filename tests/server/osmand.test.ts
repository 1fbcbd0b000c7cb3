/** The OsmAnd protocol over a real socket, through the ingest pipeline to last locations. */
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTime, startOsmand } from '../../server/ingest/osmand';
import { rowsOf } from '../../server/platform/db/client';
import { ensurePartitions, partitionName } from '../../server/platform/db/partitions';
import { createLogger } from '../../server/platform/log';
import type { LocationItem, Vehicle } from '../../src/contract';
import { createTracker, DEVICE_PASSWORD } from './devices';
import { textUntilReady } from './fixtures/live-stream';
import { as, backends, demoClients, type TestServer, useServer } from './harness';

const IMEI = '490154203237518';

describe.each(await backends())('OsmAnd ingest on %s', (backend) => {
  const server = useServer(backend);
  let listener: Server & { port: number };
  let base = '';
  let vehicleId = '';

  beforeAll(async () => {
    const s: TestServer = server();
    listener = await startOsmand({
      port: 0,
      host: '127.0.0.1',
      pipeline: s.deps.pipeline,
      log: createLogger('silent'),
    });
    base = `http://127.0.0.1:${listener.port}`;
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    vehicleId = (
      await admin.call<Vehicle>('POST', '/registros/vehicle', {
        clientId: north,
        name: 'Caminhão 7',
        plate: 'OSM7A77',
        type: 'truck',
      })
    ).body.id;
    await createTracker(admin, {
      clientId: north,
      identifier: IMEI,
      protocol: 'osmand',
      vehicleId,
    });
    await admin.call('POST', '/registros/driver', {
      clientId: north,
      completName: 'Dario Motorista',
      cpf: '52998224725',
      rfidCode: 'AB12CD34',
    });
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  // The device password in the query, as a phone app keeps the one typed in its server URL.
  const send = (query: string, init?: RequestInit) =>
    fetch(`${base}/?password=${DEVICE_PASSWORD}&${query}`, init);
  const last = async () => {
    const manager = await as(server(), 'gestor.norte@rastro.demo');
    return (await manager.call<LocationItem[]>('GET', '/registros/real-time/lastLocation')).body;
  };

  it('stores a fix sent as query parameters and answers only after the commit', async () => {
    const t = Math.floor(Date.now() / 1000) - 60;
    const res = await send(
      `id=${IMEI}&lat=-8.0476&lon=-34.8770&timestamp=${t}&speed=10&bearing=90&ignition=true&batt=87&driverUniqueId=AB12CD34&fuel=55`,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('OK');
    const [item] = await last();
    expect(item).toMatchObject({
      id: vehicleId,
      type: 'vehicle',
      name: 'Caminhão 7',
      plate: 'OSM7A77',
      latitude: -8.0476,
      ignition: true,
      driver: 'Dario Motorista',
    });
    expect(item?.speed).toBeCloseTo(18.52, 2);
  });

  it('accepts form bodies and the JSON body of Traccar Client', async () => {
    const t = Date.now() - 30_000;
    // The app's fields in the body, its password in the server URL's query: both are read.
    const form = await fetch(`${base}/?password=${DEVICE_PASSWORD}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `deviceid=${IMEI}&lat=-8.0480&lon=-34.8775&timestamp=${new Date(t).toISOString()}`,
    });
    expect(form.status).toBe(200);
    const json = await fetch(`${base}/?password=${DEVICE_PASSWORD}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: IMEI,
        location: {
          timestamp: new Date(t + 10_000).toISOString(),
          coords: { latitude: -8.049, longitude: -34.878, speed: 5, heading: 180 },
          battery: { level: 0.5 },
        },
      }),
    });
    expect(json.status).toBe(200);
    const [item] = await last();
    expect(item?.latitude).toBe(-8.049);
    expect(item?.speed).toBeCloseTo(18, 5);
  });

  it('refuses malformed messages and unknown devices, and keeps the listener alive', async () => {
    // No coordinates is a report without GPS: here of an unknown device.
    expect((await send('id=123')).status).toBe(404);
    expect((await send('lat=-8&lon=-34')).status).toBe(400);
    expect((await send(`id=${IMEI}&lat=abc&lon=1`)).status).toBe(400);
    expect(
      (
        await fetch(base, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{oops',
        })
      ).status,
    ).toBe(400);
    const unknown = await send('id=999999&lat=-8&lon=-34');
    expect(unknown.status).toBe(404);
    expect(server().deps.pipeline.stats().unknown_device).toBeGreaterThan(0);
    // A request target that is no URL is a bad message (it was a 500).
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(listener.port, '127.0.0.1', () =>
        socket.end('GET http://[x]/?id=1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect((await send(`id=${IMEI}&lat=-8.05&lon=-34.88`)).status).toBe(200);
  });

  it('filters zero and impossible fixes but acknowledges them, refuses future ones, and ignores repeats', async () => {
    const before = (await last())[0];
    expect((await send(`id=${IMEI}&lat=0&lon=0`)).status).toBe(200);
    // Past the future filter, a fix time is out of range: refused, so the device hears it.
    const future = await send(
      `id=${IMEI}&lat=-8.1&lon=-34.9&timestamp=${Math.floor(Date.now() / 1000) + 3600}`,
    );
    expect(future.status).toBe(400);
    expect(await future.text()).toBe('Mensagem inválida: horário no futuro');
    expect(
      (await send(`id=${IMEI}&lat=-23.55&lon=-46.63&timestamp=${Math.floor(Date.now() / 1000)}`))
        .status,
    ).toBe(200);
    const after = (await last())[0];
    expect(after?.latitude).toBe(before?.latitude);
    const stats = server().deps.pipeline.stats();
    expect(stats.zero_coordinates).toBeGreaterThan(0);
    expect(stats.impossible_jump).toBeGreaterThan(0);
    const t = Math.floor(Date.now() / 1000) - 5;
    const stored = stats.stored;
    await send(`id=${IMEI}&lat=-8.051&lon=-34.881&timestamp=${t}`);
    await send(`id=${IMEI}&lat=-8.051&lon=-34.881&timestamp=${t}`);
    expect(server().deps.pipeline.stats().stored).toBe(stored + 1);
  });

  it('keeps the readings of a report without GPS at the last place, never its stale place', async () => {
    // A tracker of its own: its reports are the newest it has (a late one takes the place of
    // the fix before it instead).
    const { north } = await demoClients(server());
    const admin = await as(server(), 'admin@rastro.demo');
    const car = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: 'Carro sem GPS',
      plate: 'CEG1A23',
      type: 'car',
    });
    await createTracker(admin, {
      clientId: north,
      identifier: 'cego-1',
      protocol: 'osmand',
      vehicleId: car.body.id,
    });
    const t = Math.floor(Date.now() / 1000) - 30;
    const at = async (seconds: number) =>
      rowsOf<{ latitude: number; valid: boolean | null; attributes: Record<string, unknown> }>(
        await server().deps.database.db.execute(
          sql`select p.latitude, p.valid, p.attributes from positions p
                join trackers t on t.id = p.tracker_id
               where t.identifier = 'cego-1'
                 and p.fix_time = ${new Date(seconds * 1000).toISOString()}`,
        ),
      );
    const lastOf = async () => {
      const [row] = rowsOf<{ latitude: number; battery: number; no_gps_since: Date | null }>(
        await server().deps.database.db.execute(
          sql`select l.latitude, l.battery, l.no_gps_since from last_locations l
                join trackers t on t.id = l.tracker_id where t.identifier = 'cego-1'`,
        ),
      );
      return row;
    };
    expect((await send(`id=cego-1&lat=-8.0470&lon=-34.8760&timestamp=${t}`)).status).toBe(200);
    // No GPS lock: the device repeats a stale place (here 30 km away) with valid=false or 0.
    expect((await send(`id=cego-1&lat=-8.3&lon=-34.9&timestamp=${t + 1}&valid=false`)).status).toBe(
      200,
    );
    expect((await send(`id=cego-1&lat=-8.3&lon=-34.9&timestamp=${t + 2}&valid=0`)).status).toBe(
      200,
    );
    // Cell or wifi only, no coordinates at all: the same.
    expect(
      (
        await send(
          `id=cego-1&timestamp=${t + 3}&batt=44&cell=724,5,1234,5678&wifi=aa-bb-cc-dd-ee-ff,-70`,
        )
      ).status,
    ).toBe(200);
    for (const seconds of [t + 1, t + 2, t + 3]) {
      const [row] = await at(seconds);
      expect(row?.valid).toBe(false);
      expect(Number(row?.latitude)).toBe(-8.047);
    }
    expect((await at(t + 3))[0]?.attributes).toMatchObject({ cell: '724,5,1234,5678' });
    // The last location keeps the place of the last fix, says since when there is no GPS, and
    // has the readings of the newest report.
    const blind = await lastOf();
    expect(Number(blind?.latitude)).toBe(-8.047);
    expect(Number(blind?.battery)).toBe(44);
    expect(new Date(blind?.no_gps_since ?? 0).getTime()).toBe((t + 1) * 1000);
    // The map says it too: the item keeps its place and tells since when there is no GPS.
    const item = (await last()).find((i) => i.plate === 'CEG1A23');
    expect(item).toMatchObject({
      latitude: -8.047,
      battery: 44,
      noGpsSince: new Date((t + 1) * 1000).toISOString(),
    });
    // valid=true (or 1) is an ordinary fix, and 'valid' is no attribute of it.
    const valid = await send(`id=cego-1&lat=-8.0481&lon=-34.8772&timestamp=${t + 4}&valid=1`);
    expect(valid.status).toBe(200);
    const [row] = await at(t + 4);
    expect(row?.latitude).toBeCloseTo(-8.0481, 6);
    expect(row?.valid).toBeNull();
    expect(row?.attributes).not.toHaveProperty('valid');
    expect((await lastOf())?.no_gps_since).toBeNull();
    expect((await last()).find((i) => i.plate === 'CEG1A23')).not.toHaveProperty('noGpsSince');
  });

  it('reads location=lat,lon and keeps the Traccar Client fields, a mock location flagged', async () => {
    // A second past the fixes sent earlier without a time (stamped "now" by the server, to the
    // millisecond), so this one is surely the newest.
    const t = Math.floor(Date.now() / 1000) + 1;
    expect((await send(`id=${IMEI}&location=-8.0483,-34.8774&timestamp=${t}`)).status).toBe(200);
    expect((await last()).find((item) => item.id === vehicleId)?.latitude).toBe(-8.0483);
    const json = await fetch(`${base}/?password=${DEVICE_PASSWORD}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: IMEI,
        location: {
          timestamp: new Date((t + 1) * 1000).toISOString(),
          coords: { latitude: -8.0484, longitude: -34.8775, speed: 0, heading: 0 },
          event: 'motionchange',
          is_moving: true,
          odometer: 12_345.6,
          activity: { type: 'in_vehicle' },
          mock: true,
        },
      }),
    });
    expect(json.status).toBe(200);
    const [row] = rowsOf<{ attributes: Record<string, unknown> }>(
      await server().deps.database.db.execute(
        sql`select p.attributes from positions p join trackers t on t.id = p.tracker_id
             where t.identifier = ${IMEI} order by p.fix_time desc limit 1`,
      ),
    );
    expect(row?.attributes).toMatchObject({
      event: 'motionchange',
      motion: true,
      odometer: 12_345.6,
      activity: 'in_vehicle',
      mock: true,
    });
  });

  it('takes fixes of several devices at once', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const { north } = await demoClients(server());
    const ids = ['dev-a', 'dev-b', 'dev-c'];
    for (const id of ids)
      await createTracker(admin, { clientId: north, identifier: id, protocol: 'osmand' });
    const answers = await Promise.all(
      ids.flatMap((id, i) =>
        [1, 2, 3].map((k) =>
          send(
            `id=${id}&lat=${-8 - i / 100}&lon=${-34 - k / 1000}&timestamp=${Math.floor(Date.now() / 1000) - 100 + k}`,
          ),
        ),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(9).fill(200));
    const items = await last();
    expect(items.filter((item) => item.name === 'Rastreador')).toHaveLength(3);
  });

  it('streams changed last locations within moments of ingest, and resumes from a time', async () => {
    const manager = await as(server(), 'gestor.norte@rastro.demo');
    const res = await server().request('/registros/real-time/stream', {
      token: manager.accessToken,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (pattern: RegExp) => {
      const deadline = Date.now() + 5000;
      while (!pattern.test(text)) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in ${text}`);
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    };
    await until(/event: ready/);
    const before = new Date().toISOString();
    // Newer than the fixes the tests before sent a second or two ahead of now.
    const newest = Math.floor(Date.now() / 1000) + 5;
    expect(
      (await send(`id=${IMEI}&lat=-8.0512&lon=-34.8811&speed=20&timestamp=${newest}`)).status,
    ).toBe(200);
    await until(/"latitude":-8.0512/);
    expect(text).toMatch(/event: location\ndata: \{.*"plate":"OSM7A77".*\}\nid: \d+\n/);
    await reader.cancel();

    // What a stream resumed from `since` sends before it says it is ready.
    const resumedFrom = async (since: string) =>
      textUntilReady(
        await server().request(`/registros/real-time/stream?since=${encodeURIComponent(since)}`, {
          token: manager.accessToken,
        }),
      );
    const got = await resumedFrom(before);
    expect(got).toContain('"latitude":-8.0512');
    // From the very time the fix was received (what an integrator resumes from: the last
    // item's receivedAt), which the rest of its batch shares to the millisecond.
    const item = JSON.parse(/data: (\{.*"latitude":-8\.0512.*\})/.exec(got)?.[1] ?? '{}') as {
      receivedAt: string;
    };
    expect(await resumedFrom(item.receivedAt)).toContain('"latitude":-8.0512');
  });

  it('stores many devices sending at once in shared transactions, each fix once', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const { north } = await demoClients(server());
    const ids = Array.from({ length: 40 }, (_, i) => `group-${i}`);
    for (const id of ids)
      await createTracker(admin, { clientId: north, identifier: id, protocol: 'osmand' });
    const before = server().deps.pipeline.stats();
    const t0 = Math.floor(Date.now() / 1000) - 600;
    // Ten minutes ago may be last month, whose partition a database made this month lacks: a
    // server that ran then made it then.
    await ensurePartitions(server().deps.database.db, new Date(t0 * 1000), 0);
    const answers = await Promise.all(
      ids.flatMap((id, i) =>
        [0, 1, 2, 3, 4].map((k) =>
          send(`id=${id}&lat=${-8 - i / 1000}&lon=${-34.9 + k / 1000}&timestamp=${t0 + k * 10}`),
        ),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(200).fill(200));
    // The same fixes again, with one unknown device among them: nothing new, nothing lost.
    const repeats = await Promise.all([
      ...ids.map((id, i) => send(`id=${id}&lat=${-8 - i / 1000}&lon=-34.9&timestamp=${t0}`)),
      send('id=not-ours&lat=-8&lon=-34'),
    ]);
    expect(repeats.map((r) => r.status)).toEqual([...Array(40).fill(200), 404]);
    const after = server().deps.pipeline.stats();
    expect(after.stored - before.stored).toBe(200);
    expect(after.duplicate - before.duplicate).toBe(40);
    const { rows } = (await server().deps.database.db.execute(
      sql`select count(*)::int as n, count(distinct p.tableoid)::int as parts,
                 min(p.tableoid::regclass::text) as part
            from positions p join trackers t on t.id = p.tracker_id
           where t.identifier like 'group-%'`,
    )) as unknown as { rows: { n: number; parts: number; part: string }[] };
    expect(rows[0]?.n).toBe(200);
    // Stored in this month's partition of positions, not in the default one.
    expect(rows[0]?.part).toBe(partitionName(new Date(t0 * 1000)));
    const items = await last();
    const newest = items.filter((item) => item.name === 'Rastreador' && item.latitude === -8.001);
    expect(newest).toHaveLength(1);
  });
});

describe('OsmAnd times', () => {
  it('reads a text time without an offset as UTC, whatever the server’s zone', () => {
    const zone = process.env.TZ;
    // A server set to Recife read '12:00:00' as 15:00 UTC.
    process.env.TZ = 'America/Recife';
    try {
      expect(parseTime('2024-05-01 12:00:00').toISOString()).toBe('2024-05-01T12:00:00.000Z');
      expect(parseTime('2024-05-01T12:00:00.250').toISOString()).toBe('2024-05-01T12:00:00.250Z');
      expect(parseTime('2024-05-01T12:00:00-03:00').toISOString()).toBe('2024-05-01T15:00:00.000Z');
      expect(parseTime('1714564800').toISOString()).toBe('2024-05-01T12:00:00.000Z');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
