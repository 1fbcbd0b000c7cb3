/**
 * One bad value never blocks good data: every protocol, over its real socket, refuses each
 * value out of the physical bounds with its own refusal (OsmAnd 400, Wialon IPS the field's
 * code, flespi a skipped message) — never a 500, never silence — and stores nothing of it;
 * a black box or a flespi batch with one bad message stores all the good ones; and the
 * pipeline's retry drops only the fix the database refuses.
 */
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOsmand } from '../../server/ingest/osmand';
import { crcHex } from '../../server/ingest/wialon/parse';
import { startWialon, type WialonListener } from '../../server/ingest/wialon/tcp';
import { rowsOf } from '../../server/platform/db/client';
import { createLogger } from '../../server/platform/log';
import type { FlespiStreamResult } from './api-types';
import { createTracker, DEVICE_PASSWORD } from './devices';
import { as, backends, demoClients, jsonOf, type TestServer, useServer } from './harness';

const OSMAND_ID = 'limites-osmand';
const WIALON_ID = 'limites-wialon';
const FLESPI_ID = 'limites-flespi';
const SECRET = 'segredo-do-fluxo-de-limites';

/** A Wialon IPS device on a real socket: one packet, one answer line. */
async function wialonDevice(port: number) {
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  socket.setEncoding('latin1');
  let buffered = '';
  const waiting: ((line: string) => void)[] = [];
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      waiting.shift()?.(line);
    }
  });
  return {
    send(packet: string): Promise<string> {
      const answer = new Promise<string>((resolve) => waiting.push(resolve));
      socket.write(`${packet}\r\n`, 'latin1');
      return answer;
    },
    close: () => socket.destroy(),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
function stamp(date: Date) {
  return {
    date: `${pad(date.getUTCDate())}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCFullYear() % 100)}`,
    time: `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`,
  };
}
const POS = '0803.2340;S;03452.8660;W';

describe.each(await backends())('physical bounds on %s', (backend) => {
  const server = useServer(backend, () => ({ FLESPI_STREAM_SECRET: SECRET }));
  let osmand: Awaited<ReturnType<typeof startOsmand>>;
  let wialon: WialonListener;
  let http: ServerType;
  let flespiUrl = '';

  const positionsOf = async (identifier: string) => {
    const [row] = rowsOf<{ n: number }>(
      await server().deps.database.db.execute(
        sql`select count(*)::int as n from positions p join trackers t on t.id = p.tracker_id
             where t.identifier = ${identifier}`,
      ),
    );
    return row?.n ?? 0;
  };
  /** The newest position stored for `identifier`. */
  const lastStored = async (identifier: string) => {
    const [row] = rowsOf<{
      fixTime: number;
      speed: number | null;
      course: number | null;
      battery: number | null;
      attributes: Record<string, unknown>;
    }>(
      await server().deps.database.db.execute(
        sql`select (extract(epoch from p.fix_time) * 1000)::float8 as "fixTime", p.speed,
                   p.course, p.battery, p.attributes
              from positions p join trackers t on t.id = p.tracker_id
             where t.identifier = ${identifier} order by p.fix_time desc limit 1`,
      ),
    );
    return row;
  };

  beforeAll(async () => {
    const s: TestServer = server();
    const log = createLogger('silent');
    osmand = await startOsmand({ port: 0, host: '127.0.0.1', pipeline: s.deps.pipeline, log });
    wialon = await startWialon({ port: 0, host: '127.0.0.1', pipeline: s.deps.pipeline, log });
    http = await new Promise<ServerType>((resolve) => {
      const h = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(h));
    });
    flespiUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/tech-integracao/v1/flespi/stream`;
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    for (const [identifier, protocol] of [
      [OSMAND_ID, 'osmand'],
      [WIALON_ID, 'wialon_ips'],
      [FLESPI_ID, 'flespi'],
    ] as const)
      await createTracker(admin, { clientId: north, identifier, protocol });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => osmand.close(() => resolve()));
    await new Promise<void>((resolve) => wialon.close(() => resolve()));
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it('OsmAnd: answers 400 for each value out of range and stores none of them', async () => {
    const base = `http://127.0.0.1:${osmand.port}/`;
    const now = Math.floor(Date.now() / 1000);
    const good = `id=${OSMAND_ID}&lat=-8.05&lon=-34.88&timestamp=${now - 60}`;
    const cases: [string, RegExp][] = [
      [`${good}&speed=1e300`, /velocidade fora do intervalo/],
      [`id=${OSMAND_ID}&lat=-8.05&lon=-34.88&timestamp=1e20`, /horário inválido/],
      [`id=${OSMAND_ID}&lat=-8.05&lon=-34.88&timestamp=0000-01-01T00:00:00Z`, /horário inválido/],
      [`id=${OSMAND_ID}&lat=-8.05&lon=-34.88&timestamp=1999-12-31T23:59:59Z`, /horário inválido/],
      [`id=${OSMAND_ID}&lat=-8.05&lon=-34.88&timestamp=${now + 86_400}`, /horário no futuro/],
      [`id=${OSMAND_ID}%00&lat=-8.05&lon=-34.88`, /identificador inválido/],
      [`${good}&fuel=5%00`, /caractere de controle/],
      [`${good}&bearing=400`, /rumo fora do intervalo/],
      [`${good}&altitude=-1e9`, /altitude fora do intervalo/],
      [`${good}&accuracy=-3`, /precisão fora do intervalo/],
      [`${good}&sat=1e300`, /satélites fora do intervalo/],
      [`${good}&hdop=1e6`, /HDOP fora do intervalo/],
      [`id=${OSMAND_ID}&lat=91&lon=-34.88`, /latitude fora do intervalo/],
      [`id=${OSMAND_ID}&lat=-8&lon=-181`, /longitude fora do intervalo/],
    ];
    for (const [query, message] of cases) {
      const res = await fetch(`${base}?password=${DEVICE_PASSWORD}&${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.text(), query).toMatch(message);
    }
    /** A fix in Traccar Client's JSON body. */
    const traccar = (location: Record<string, unknown>) =>
      fetch(`${base}?password=${DEVICE_PASSWORD}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ device_id: OSMAND_ID, location }),
      });
    const json = await traccar({
      timestamp: new Date((now - 30) * 1000).toISOString(),
      coords: { latitude: -8.05, longitude: -34.88, speed: 1e300 },
      extras: { nested: { note: 'a\u0000b' } },
    });
    expect(json.status).toBe(400);
    expect(await positionsOf(OSMAND_ID)).toBe(0);
    // The listener is fine and the next good fix is stored.
    expect((await fetch(`${base}?password=${DEVICE_PASSWORD}&${good}&speed=20&sat=9`)).status).toBe(
      200,
    );
    expect(await positionsOf(OSMAND_ID)).toBe(1);

    // Readings in another unit cost the reading, not the position (a fuel sensor in litres,
    // a supply in millivolts, a battery in anything but %): the tracker's own names stay.
    const readings = `id=${OSMAND_ID}&lat=-8.05&lon=-34.88&timestamp=${now - 50}`;
    expect(
      (
        await fetch(
          `${base}?password=${DEVICE_PASSWORD}&${readings}&batt=150&power=12560&fuel=250.5`,
        )
      ).status,
    ).toBe(200);
    const kept = await lastStored(OSMAND_ID);
    expect(kept?.battery).toBeNull();
    expect(kept?.attributes).toMatchObject({ fuel: '250.5' });
    // No reading is made of them, and nothing sent is lost: they are kept apart, by name.
    for (const name of ['power', 'fuelLevel']) expect(kept?.attributes).not.toHaveProperty(name);
    expect(kept?.attributes.implausible).toEqual({ battery: 150, power: 12560, fuelLevel: 250.5 });
    // Traccar Client's -1 is 'not known' (heading, speed, battery): it refused the fix for ever.
    const unknown = await traccar({
      timestamp: new Date((now - 40) * 1000).toISOString(),
      coords: { latitude: -8.05, longitude: -34.88, speed: -1, heading: -1 },
      battery: { level: -1 },
    });
    expect(unknown.status).toBe(200);
    expect(await lastStored(OSMAND_ID)).toMatchObject({ speed: null, course: null, battery: null });
    // The same as parameters (OsmAnd's own form): bearing -1 was 'rumo fora do intervalo'.
    const params = `id=${OSMAND_ID}&lat=-8.05&lon=-34.88&timestamp=${now - 35}`;
    expect(
      (await fetch(`${base}?password=${DEVICE_PASSWORD}&${params}&speed=-1&bearing=-1&batt=-1`))
        .status,
    ).toBe(200);
    expect(await lastStored(OSMAND_ID)).toMatchObject({ speed: null, course: null, battery: null });
    // A time without an offset is UTC, whatever the server's zone.
    const at = new Date((now - 30) * 1000);
    const text = at.toISOString().slice(0, 19).replace('T', ' ');
    const utc = `id=${OSMAND_ID}&lat=-8.05&lon=-34.88&timestamp=${encodeURIComponent(text)}`;
    expect((await fetch(`${base}?password=${DEVICE_PASSWORD}&${utc}`)).status).toBe(200);
    expect((await lastStored(OSMAND_ID))?.fixTime).toBe(at.getTime());
  });

  it('Wialon IPS: answers each field out of range with its code and stores none of them', async () => {
    const d = await wialonDevice(wialon.port);
    expect(await d.send(`#L#${WIALON_ID};${DEVICE_PASSWORD}`)).toBe('#AL#1');
    const { date, time } = stamp(new Date(Date.now() - 60_000));
    const short = (speed: string, course = '90', alt = '10', sats = '8') =>
      `#SD#${date};${time};${POS};${speed};${course};${alt};${sats}`;
    const ext = (tail: string) => `#D#${date};${time};${POS};40;90;10;8;${tail}`;
    expect(await d.send(short('1e300'))).toBe('#ASD#11');
    expect(await d.send(short('40', '90', '1e9'))).toBe('#ASD#11');
    expect(await d.send(short('40', '90', '10', '1000'))).toBe('#ASD#12');
    expect(await d.send(`#SD#010199;${time};${POS};40;90;10;8`)).toBe('#ASD#0');
    expect(await d.send(ext('1e300;1;0;NA;NA;NA'))).toBe('#AD#12');
    expect(await d.send(ext('1.0;1;0;NA;NA;fw:3:v1\u0000'))).toBe('#AD#15');
    expect(await d.send(ext('1.0;1;0;NA;0A1B\u0007;NA'))).toBe('#AD#15');
    expect(await positionsOf(WIALON_ID)).toBe(0);
    expect(await d.send(short('40'))).toBe('#ASD#1');
    expect(await positionsOf(WIALON_ID)).toBe(1);
    // Readings in another unit cost the reading, not the position: a fuel sensor in litres
    // (Gurtam's own example), a supply in millivolts, J1939's 'not available' engine speed.
    const later = stamp(new Date(Date.now() - 50_000));
    const readings = 'fuel:2:250.5,pwr_ext:1:12560,rpm:1:65535,batt:2:1e300';
    expect(
      await d.send(`#D#${later.date};${later.time};${POS};40;90;10;8;1.0;1;0;NA;NA;${readings}`),
    ).toBe('#AD#1');
    expect(await positionsOf(WIALON_ID)).toBe(2);
    const stored = await lastStored(WIALON_ID);
    expect(stored?.battery).toBeNull();
    expect(stored?.attributes).toMatchObject({ fuel: 250.5, pwr_ext: 12560 });
    for (const name of ['fuelLevel', 'power', 'rpm'])
      expect(stored?.attributes).not.toHaveProperty(name);
    expect(stored?.attributes.implausible).toEqual({
      battery: 1e300,
      fuelLevel: 250.5,
      power: 12560,
      rpm: 65535,
    });
    // An identifier with a control character is never looked up.
    const other = await wialonDevice(wialon.port);
    expect(await other.send(`#L#${WIALON_ID}\u0001;${DEVICE_PASSWORD}`)).toBe('#AL#0');
    other.close();
    d.close();
  });

  it('Wialon IPS: a black box with one bad message stores every good one', async () => {
    const d = await wialonDevice(wialon.port);
    expect(
      await d.send(
        `#L#2.0;${WIALON_ID};${DEVICE_PASSWORD};${crcHex(`2.0;${WIALON_ID};${DEVICE_PASSWORD};`)}`,
      ),
    ).toBe('#AL#1');
    const base = Date.now() - 3_600_000;
    const messages = Array.from({ length: 20 }, (_, k) => {
      const { date, time } = stamp(new Date(base + k * 10_000));
      return `${date};${time};${POS};${k === 7 ? '1e300' : '40'};90;10;8`;
    });
    const body = `${messages.join('|')}|`;
    const before = await positionsOf(WIALON_ID);
    expect(await d.send(`#B#${body}${crcHex(body)}`)).toBe('#AB#19');
    expect((await positionsOf(WIALON_ID)) - before).toBe(19);
    d.close();
  });

  it('flespi: skips each message out of range and stores the 99 good ones of a batch', async () => {
    const t = Date.now() / 1000 - 2000;
    const batch: Record<string, unknown>[] = Array.from({ length: 100 }, (_, k) => ({
      ident: FLESPI_ID,
      timestamp: t + k,
      'position.latitude': -8.06,
      'position.longitude': -34.91,
      'position.speed': k === 42 ? 1e300 : 30,
    }));
    const post = (body: unknown) =>
      fetch(flespiUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` },
        body: JSON.stringify(body),
      });
    const res = await post(batch);
    expect(res.status).toBe(200);
    expect(await jsonOf<FlespiStreamResult>(res)).toMatchObject({
      received: 100,
      stored: 99,
      skipped: 1,
    });
    expect(await positionsOf(FLESPI_ID)).toBe(99);
    const bad = [
      { ident: FLESPI_ID, timestamp: 1e20, 'position.latitude': -8, 'position.longitude': -34 },
      { ident: FLESPI_ID, timestamp: -62e9, 'position.latitude': -8, 'position.longitude': -34 },
      {
        ident: `${FLESPI_ID}\u0000`,
        timestamp: t,
        'position.latitude': -8,
        'position.longitude': -34,
      },
      {
        ident: FLESPI_ID,
        timestamp: t + 500,
        'position.latitude': -8,
        'position.longitude': -34,
        note: 'x\u0000',
      },
      {
        ident: FLESPI_ID,
        timestamp: t + 501,
        'position.latitude': -8,
        'position.longitude': -34,
        'position.satellites': 1e9,
      },
      {
        ident: FLESPI_ID,
        timestamp: t + 502,
        'position.latitude': -8,
        'position.longitude': -34,
        'position.direction': -5,
      },
      {
        ident: FLESPI_ID,
        timestamp: t + 503,
        'position.latitude': -8,
        'position.longitude': -34,
        'battery.level': 1e300,
      },
      // 130,000 items: spread onto the check's stack they overflowed it, and the batch was a 500
      // that flespi would send again for ever.
      {
        ident: FLESPI_ID,
        timestamp: t + 504,
        'position.latitude': -8,
        'position.longitude': -34,
        'can.data': Array.from({ length: 130_000 }, () => 0),
      },
    ];
    const refused = await post(bad);
    expect(refused.status).toBe(200);
    expect(await jsonOf<FlespiStreamResult>(refused)).toMatchObject({
      received: 8,
      stored: 1,
      skipped: 7,
    });
    // The battery's 1e300 cost the reading (a battery in an unknown unit), not the position.
    expect(await positionsOf(FLESPI_ID)).toBe(100);
    expect((await lastStored(FLESPI_ID))?.battery).toBeNull();
    // A supply in millivolts too (it refused the message through flespi's own name).
    const supply = await post([
      {
        ident: FLESPI_ID,
        timestamp: t + 600,
        'position.latitude': -8,
        'position.longitude': -34,
        'external.powersource.voltage': 12560,
      },
    ]);
    expect(await jsonOf<FlespiStreamResult>(supply)).toMatchObject({ stored: 1, skipped: 0 });
    // flespi's name and the canonical one read from it.
    expect((await lastStored(FLESPI_ID))?.attributes.implausible).toEqual({
      'external.powersource.voltage': 12560,
      power: 12560,
    });
  });

  it('OsmAnd: closes a connection whose headers never finish, and idle kept-alive ones', async () => {
    const listener = await startOsmand({
      port: 0,
      host: '127.0.0.1',
      pipeline: server().deps.pipeline,
      log: createLogger('silent'),
      headersTimeoutMs: 400,
      requestTimeoutMs: 800,
      keepAliveTimeoutMs: 300,
    });
    const open = () =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(listener.port, '127.0.0.1', () => resolve(socket));
        socket.once('error', reject);
      });
    const closed = (socket: Socket) =>
      new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        socket.on('close', () => resolve(text));
      });
    // A slow client that never finishes its headers.
    const slow = await open();
    slow.write('GET /?id=x HTTP/1.1\r\nHost: rastreador\r\n');
    expect(await closed(slow)).toMatch(/^HTTP\/1\.1 408/);
    // A device that sent one fix and then keeps the connection idle.
    const idle = await open();
    const answer = closed(idle);
    idle.write(
      `GET /?password=${DEVICE_PASSWORD}&id=${OSMAND_ID}&lat=-8.05&lon=-34.88&timestamp=${Math.floor(Date.now() / 1000) - 5} HTTP/1.1\r\nHost: rastreador\r\nConnection: keep-alive\r\n\r\n`,
    );
    expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });

  it('pipeline: a fix the database refuses costs only itself, in a batch of many devices', async () => {
    const { pipeline } = server().deps;
    const t = Date.now() - 7_200_000;
    const fix = (k: number, speed = 10) => ({
      fixTime: new Date(t + k * 1000),
      latitude: -8.05,
      longitude: -34.88,
      speed,
      attributes: {},
    });
    // Past the parsers' checks (as a new source might send): the database refuses 1e300.
    const stats = pipeline.stats();
    const [mixed, neighbour] = await Promise.all([
      pipeline.accept(FLESPI_ID, [fix(1), fix(2, 1e300), fix(3)]),
      pipeline.accept(OSMAND_ID, [fix(4)]),
    ]);
    expect(mixed).toMatchObject({ status: 'ok', stored: 2, rejected: ['invalid_value'] });
    expect(neighbour).toMatchObject({ status: 'ok', stored: 1 });
    expect(pipeline.stats().invalid_value - stats.invalid_value).toBe(1);
  });
});
