/** Wialon IPS 1.1 and 2.0 over real TCP sockets, through the ingest pipeline. */
import type { Server } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc16, crcHex } from '../../server/ingest/wialon/parse';
import { startWialon } from '../../server/ingest/wialon/tcp';
import { rowsOf } from '../../server/platform/db/client';
import { createLogger } from '../../server/platform/log';
import type { LocationItem, Vehicle } from '../../src/contract';
import { RECIFE, stamp, v2, WialonDevice } from './devices';
import { as, backends, demoClients, useServer } from './harness';

const V1 = '860000000000017';
const V2 = '860000000000025';
const OTHER = '860000000000033';

/** Recife, in the protocol's DDMM.MMMM. */
const POS = RECIFE;

describe('Wialon IPS CRC', () => {
  it('is CRC-16/ARC', () => {
    expect(crc16('123456789')).toBe(0xbb3d);
    expect(crcHex('2.0;imei;NA;')).toMatch(/^[0-9A-F]{4}$/);
  });
});

describe.each(await backends())('Wialon IPS ingest on %s', (backend) => {
  const server = useServer(backend);
  let listener: Server & { port: number };
  let vehicleId = '';

  beforeAll(async () => {
    const s = server();
    listener = await startWialon({
      port: 0,
      host: '127.0.0.1',
      password: 'segredo',
      pipeline: s.deps.pipeline,
      log: createLogger('silent'),
    });
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    vehicleId = (
      await admin.call<Vehicle>('POST', '/registros/vehicle', {
        clientId: north,
        name: 'Carreta Wialon',
        plate: 'WIA2B22',
        type: 'truck',
      })
    ).body.id;
    // Each with its own device password (the same as the listener's global one here).
    for (const identifier of [V1, V2, OTHER])
      await admin.call('POST', '/registros/tracker', {
        clientId: north,
        identifier,
        provider: 'rastro',
        protocol: 'wialon_ips',
        devicePassword: 'segredo',
        ...(identifier === V2 ? { vehicleId } : {}),
      });
    await admin.call('POST', '/registros/driver', {
      clientId: north,
      completName: 'Ivo Botão',
      cpf: '11144477735',
      rfidCode: '0A1B2C3D4E5F',
    });
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  /** The `fw` text of the newest position stored for `identifier`. */
  const newestText = async (identifier: string) => {
    const [row] = rowsOf<{ fw: string | null }>(
      await server().deps.database.db.execute(
        sql`select p.attributes->>'fw' as fw from positions p
              join trackers t on t.id = p.tracker_id
             where t.identifier = ${identifier} order by p.fix_time desc limit 1`,
      ),
    );
    return row?.fw;
  };

  const last = async (name: string) => {
    const manager = await as(server(), 'gestor.norte@rastro.demo');
    const items = (await manager.call<LocationItem[]>('GET', '/registros/real-time/lastLocation'))
      .body;
    return items.find((item) => item.name === name || item.id === name);
  };

  it('answers every login code of 1.1 and 2.0', async () => {
    const d = await WialonDevice.open(listener.port);
    expect(await d.send(`#L#${V1};segredo`)).toBe('#AL#1');
    expect(await d.send(`#L#${V1};errada`)).toBe('#AL#01');
    expect(await d.send('#L#999999999999999;segredo')).toBe('#AL#0');
    expect(await d.send('#L#sem-senha')).toBe('#AL#0');
    expect(await d.send(v2('L', `2.0;${V2};segredo;`))).toBe('#AL#1');
    expect(await d.send(`#L#2.0;${V2};segredo;0000`)).toBe('#AL#10');
    expect(await d.send('#P#')).toBe('#AP#');
    // The third refusal for a password or an identifier (malformed ones do not count) is the
    // connection's last answer.
    expect(await d.send(v2('L', `2.0;${V2};errada;`))).toBe('#AL#01');
    d.close();
  });

  it('refuses data before a login', async () => {
    const d = await WialonDevice.open(listener.port);
    const { date, time } = stamp(new Date());
    expect(await d.send(`#SD#${date};${time};${POS};50;90;10;8`)).toBe('#ASD#-1');
    expect(await d.send(`#D#${date};${time};${POS};50;90;10;8;1;0;0;;NA;NA`)).toBe('#AD#-1');
    d.close();
  });

  it('stores 1.1 short and extended data and answers each code', async () => {
    const d = await WialonDevice.open(listener.port);
    expect(await d.send(`#L#${V1};segredo`)).toBe('#AL#1');
    const at = new Date(Date.now() - 120_000);
    const { date, time } = stamp(at);
    expect(await d.send(`#SD#${date};${time};${POS};54.5;91;12;9`)).toBe('#ASD#1');
    let item = await last('Rastreador');
    expect(item?.latitude).toBeCloseTo(-(8 + 3.234 / 60), 6);
    expect(item?.longitude).toBeCloseTo(-(34 + 52.866 / 60), 6);
    expect(item?.speed).toBeCloseTo(54.5, 3);

    // Each field in error gets its own code, and nothing is stored.
    expect(await d.send(`#SD#${date};${time};${POS};50;90;10`)).toBe('#ASD#-1');
    expect(await d.send(`#SD#321399;${time};${POS};50;90;10;8`)).toBe('#ASD#0');
    expect(await d.send(`#SD#${date};${time};9903.2340;S;03452.8660;W;50;90;10;8`)).toBe('#ASD#10');
    expect(await d.send(`#SD#${date};${time};0803.2340;X;03452.8660;W;50;90;10;8`)).toBe('#ASD#10');
    expect(await d.send(`#SD#${date};${time};${POS};rápido;90;10;8`)).toBe('#ASD#11');
    expect(await d.send(`#SD#${date};${time};${POS};50;90;10;muitos`)).toBe('#ASD#12');

    // NA in optional fields is fine; extended data with inputs, ADC, iButton and params.
    const later = stamp(new Date(at.getTime() + 10_000));
    expect(
      await d.send(`#D#${later.date};${later.time};${POS};NA;NA;NA;NA;NA;NA;NA;NA;NA;NA`),
    ).toBe('#AD#1');
    const next = stamp(new Date(at.getTime() + 20_000));
    expect(
      await d.send(
        `#D#${next.date};${next.time};${POS};61;180;15;10;0.9;1;0;12.5,3.3;0A1B2C3D4E5F;ign:1:1,batt:2:76.5,fw:3:v1.2`,
      ),
    ).toBe('#AD#1');
    item = await last('Rastreador');
    expect(item).toMatchObject({ ignition: true, battery: 76.5, driver: 'Ivo Botão', course: 180 });
    const fields = `${next.date};${next.time};${POS};61;180;15;10`;
    expect(await d.send(`#D#${fields};0.9;um;0;NA;NA;NA`)).toBe('#AD#13');
    expect(await d.send(`#D#${fields};x;1;0;NA;NA;NA`)).toBe('#AD#12');
    expect(await d.send(`#D#${fields};0.9;1;0;a,b;NA;NA`)).toBe('#AD#14');
    expect(await d.send(`#D#${fields};0.9;1;0;NA;NA;semtipo`)).toBe('#AD#15');
    expect(await d.send(`#D#${fields};0.9;1;0;NA;NA;n:1:1.5`)).toBe('#AD#15');
    expect(await d.send(`#D#${fields};0.9`)).toBe('#AD#-1');
    // A line that is not a packet gets no answer and the connection goes on.
    d.socket.write('lixo sem tipo\r\n');
    expect(await d.send('#P#')).toBe('#AP#');
    d.close();
  });

  it('checks the CRC of 2.0 packets and stores black boxes', async () => {
    const d = await WialonDevice.open(listener.port);
    expect(await d.send(v2('L', `2.0;${V2};segredo;`))).toBe('#AL#1');
    const base = Date.now() - 300_000;
    const s = (k: number) => stamp(new Date(base + k * 10_000));
    const sd = (k: number) => `${s(k).date};${s(k).time};${POS};40;45;5;7`;
    expect(await d.send(v2('SD', `${sd(0)};`))).toBe('#ASD#1');
    expect(await d.send(`#SD#${sd(1)};0000`)).toBe('#ASD#13');
    expect(await d.send(`#D#${sd(1)};1;1;0;NA;NA;NA;0000`)).toBe('#AD#16');
    expect(await d.send(v2('D', `${sd(1)};1.1;1;0;NA;NA;NA;`))).toBe('#AD#1');
    // Black box: three good messages (short and extended) and one broken.
    const box = `${sd(2)}|${sd(3)};1.0;0;0;NA;0A1B2C3D4E5F;NA|${sd(4)}|quebrada;1|`;
    expect(await d.send(v2('B', box))).toBe('#AB#3');
    // A CRC error asks for the packet again (Gurtam: an empty count).
    expect(await d.send(`#B#${box}0000`)).toBe('#AB#');
    const item = await last(vehicleId);
    expect(item?.fixTime).toBe(new Date(Math.floor((base + 40_000) / 1000) * 1000).toISOString());
    // Text in UTF-8 or in ISO-8859-1 (a Brazilian tracker's 'versão'): the CRC is over the bytes
    // sent, and the text is read right either way (Latin-1 failed the CRC: '#AD#16' for ever).
    const fw = (k: number, text: string) => `${sd(k)};1.0;0;0;NA;NA;fw:3:${text};`;
    expect(await d.send(v2('D', fw(5, 'versão')))).toBe('#AD#1');
    expect(await newestText(V2)).toBe('versão');
    const latin = fw(6, 'ação');
    const crc = crc16(latin, 'latin1').toString(16).toUpperCase().padStart(4, '0');
    d.socket.write(Buffer.from(`#D#${latin}${crc}\r\n`, 'latin1'));
    expect(await d.answer()).toBe('#AD#1');
    expect(await newestText(V2)).toBe('ação');
    // A CRC as real devices write it: lower case, `0x`, not padded (`0x9b0`), or decimal.
    const d7 = `${sd(7)};1.0;0;0;NA;NA;NA;`;
    expect(await d.send(`#D#${d7}0x${crc16(d7).toString(16)}`)).toBe('#AD#1');
    const d8 = `${sd(8)};1.0;0;0;NA;NA;NA;`;
    expect(await d.send(`#D#${d8}${crc16(d8)}`)).toBe('#AD#1');
    d.close();
  });

  it('serves several devices on one listener at once, each on its own session', async () => {
    const [a, b] = await Promise.all([
      WialonDevice.open(listener.port),
      WialonDevice.open(listener.port),
    ]);
    expect(await a.send(`#L#${V1};segredo`)).toBe('#AL#1');
    expect(await b.send(`#L#${OTHER};segredo`)).toBe('#AL#1');
    const now = stamp(new Date(Date.now() - 1000));
    const [ra, rb] = await Promise.all([
      a.send(`#SD#${now.date};${now.time};0801.0000;S;03450.0000;W;10;0;0;5`),
      b.send(`#SD#${now.date};${now.time};0802.0000;S;03451.0000;W;20;0;0;5`),
    ]);
    expect([ra, rb]).toEqual(['#ASD#1', '#ASD#1']);
    const manager = await as(server(), 'gestor.norte@rastro.demo');
    const items = (await manager.call<LocationItem[]>('GET', '/registros/real-time/lastLocation'))
      .body;
    const lats = items.map((item) => item.latitude.toFixed(4));
    expect(lats).toEqual(expect.arrayContaining(['-8.0167', '-8.0333']));
    a.close();
    b.close();
  });
});
