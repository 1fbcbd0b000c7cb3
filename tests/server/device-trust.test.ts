/**
 * Only the real tracker speaks for a vehicle, over real sockets: OsmAnd and Wialon IPS check
 * the tracker's protocol and the device's password and answer every refusal as an unknown
 * identifier; a second login never takes a live command link; fix times in the future, in the
 * past far from their neighbours, or already taken by another fix are not stored; what came
 * and was refused is on the tracker's page, and unknown identifiers on the administrator's
 * list.
 */
import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOsmand } from '../../server/ingest/osmand';
import { startWialon, type WialonListener } from '../../server/ingest/wialon/tcp';
import { startWialonUdp, type WialonUdpListener } from '../../server/ingest/wialon/udp';
import { rowsOf } from '../../server/platform/db/client';
import { createLogger } from '../../server/platform/log';
import type { Command, Tracker, UnknownDevicePage, Vehicle } from '../../src/contract';
import {
  createTracker,
  DEVICE_PASSWORD,
  dataBody,
  login2,
  RECIFE,
  udpExchange,
  v2,
  WialonDevice,
} from './devices';
import { as, backends, demoClients, useServer } from './harness';

const log = createLogger('silent');

describe.each(await backends())('device trust on %s', (backend) => {
  const server = useServer(backend, () => ({
    COMMAND_POLL_SECONDS: '1',
    DEVICE_SESSION_LIVE_SECONDS: '2',
  }));
  let osmand: Server & { port: number };
  let wialon: WialonListener;
  let udp: WialonUdpListener;
  let base = '';
  let north = '';
  let admin: Awaited<ReturnType<typeof as>>;

  beforeAll(async () => {
    const s = server();
    osmand = await startOsmand({ port: 0, host: '127.0.0.1', pipeline: s.deps.pipeline, log });
    wialon = await startWialon({
      port: 0,
      host: '127.0.0.1',
      pipeline: s.deps.pipeline,
      downlink: s.deps.downlink,
      status: s.deps.devices,
      auth: 'required',
      maxFutureSeconds: s.config.ingest.maxFutureSeconds,
      loginSlowdownMs: 0,
      log,
    });
    udp = await startWialonUdp({
      port: wialon.port,
      host: '127.0.0.1',
      pipeline: s.deps.pipeline,
      status: s.deps.devices,
      auth: 'required',
      maxFutureSeconds: s.config.ingest.maxFutureSeconds,
      log,
    });
    base = `http://127.0.0.1:${osmand.port}`;
    north = (await demoClients(s)).north;
    admin = await as(s, 'admin@rastro.demo');
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => osmand.close(() => resolve()));
    await new Promise<void>((resolve) => wialon.close(() => resolve()));
    await udp.close();
  });

  const vehicle = async (plate: string) =>
    (
      await admin.call<Vehicle>('POST', '/registros/vehicle', {
        clientId: north,
        name: `Veículo ${plate}`,
        plate,
        type: 'truck',
      })
    ).body.id;
  const positions = async (identifier: string) =>
    rowsOf<{ fix_time: Date; latitude: number; valid: boolean | null; attributes: object }>(
      await server().deps.database.db.execute(sql`
        select p.fix_time, p.latitude, p.valid, p.attributes from positions p
          join trackers t on t.id = p.tracker_id
         where t.identifier = ${identifier} order by p.fix_time`),
    );
  const trackerOf = async (id: string) => {
    await server().deps.devices.flush();
    return (await admin.call<Tracker>('GET', `/registros/tracker/${id}`)).body;
  };
  const get = (query: string) => fetch(`${base}/?${query}`);
  const secs = (offset = 0) => Math.floor(Date.now() / 1000) + offset;

  it('answers OsmAnd without a password, with a wrong one, or for another protocol as unknown', async () => {
    const phone = await createTracker(admin, {
      clientId: north,
      identifier: 'fone-1',
      protocol: 'osmand',
    });
    await createTracker(admin, {
      clientId: north,
      identifier: 'caminhao-1',
      protocol: 'wialon_ips',
    });
    const fix = `lat=-8.05&lon=-34.88&timestamp=${secs(-60)}`;
    const unknown = await get(`id=nao-existe&password=${DEVICE_PASSWORD}&${fix}`);
    expect(unknown.status).toBe(404);
    const unknownText = await unknown.text();
    for (const query of [
      `id=fone-1&${fix}`,
      `id=fone-1&password=errada-123&${fix}`,
      // A Wialon IPS tracker, with its own right password, over OsmAnd: somebody else.
      `id=caminhao-1&password=${DEVICE_PASSWORD}&${fix}`,
    ]) {
      const res = await get(query);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe(unknownText);
    }
    expect(await positions('fone-1')).toEqual([]);
    expect(await positions('caminhao-1')).toEqual([]);
    const stats = server().deps.pipeline.stats();
    expect(stats.wrong_password).toBeGreaterThanOrEqual(2);
    expect(stats.wrong_protocol).toBeGreaterThan(0);
    // The right password, in the query (as a phone app keeps it) or as HTTP Basic.
    expect((await get(`id=fone-1&password=${DEVICE_PASSWORD}&${fix}`)).status).toBe(200);
    const basic = Buffer.from(`fone-1:${DEVICE_PASSWORD}`).toString('base64');
    const viaBasic = await fetch(
      `${base}/?id=fone-1&lat=-8.051&lon=-34.881&timestamp=${secs(-50)}`,
      {
        headers: { authorization: `Basic ${basic}` },
      },
    );
    expect(viaBasic.status).toBe(200);
    const stored = await positions('fone-1');
    expect(stored).toHaveLength(2);
    // The password is never kept with the position.
    expect(JSON.stringify(stored)).not.toContain(DEVICE_PASSWORD);
    const page = await trackerOf(phone.id);
    expect(page.communication).toMatchObject({
      lastKind: 'position',
      lastProtocol: 'osmand',
      lastAddress: expect.stringContaining('127.0.0.1'),
      authenticated: true,
      lastRefusal: 'password',
    });
  });

  it('lets in a tracker ticked "Aceitar sem senha" without a password, never with a wrong one', async () => {
    const open = await createTracker(admin, {
      clientId: north,
      identifier: 'fone-aberto',
      protocol: 'osmand',
      devicePassword: undefined,
      allowUnauthenticated: true,
    });
    expect(open).toMatchObject({ allowUnauthenticated: true, devicePasswordSet: false });
    expect((await get(`id=fone-aberto&lat=-8.05&lon=-34.88&timestamp=${secs(-30)}`)).status).toBe(
      200,
    );
    expect((await trackerOf(open.id)).communication?.authenticated).toBe(false);
    // A tracker with a password and the box ticked: no password passes, a wrong one does not.
    const both = await createTracker(admin, {
      clientId: north,
      identifier: 'fone-ambos',
      protocol: 'osmand',
      allowUnauthenticated: true,
    });
    expect(both.devicePasswordSet).toBe(true);
    expect((await get(`id=fone-ambos&lat=-8.05&lon=-34.88&timestamp=${secs(-30)}`)).status).toBe(
      200,
    );
    expect(
      (await get(`id=fone-ambos&password=errada-9&lat=-8.05&lon=-34.88&timestamp=${secs(-20)}`))
        .status,
    ).toBe(404);
  });

  it('refuses a fix five minutes ahead and keeps one within the allowed skew', async () => {
    await createTracker(admin, { clientId: north, identifier: 'fone-relogio', protocol: 'osmand' });
    const auth = `id=fone-relogio&password=${DEVICE_PASSWORD}`;
    const ahead = await get(`${auth}&lat=-8.05&lon=-34.88&timestamp=${secs(300)}`);
    expect(ahead.status).toBe(400);
    expect(await ahead.text()).toBe('Mensagem inválida: horário no futuro');
    expect(await positions('fone-relogio')).toEqual([]);
    expect((await get(`${auth}&lat=-8.05&lon=-34.88&timestamp=${secs(30)}`)).status).toBe(200);
    expect(await positions('fone-relogio')).toHaveLength(1);
    expect((await trackerOf((await last('fone-relogio')).id)).communication?.lastRefusal).toBe(
      'future',
    );
  });

  /** The tracker named `identifier`, as the API lists it. */
  async function last(identifier: string) {
    const list = await admin.call<{ trackers: Tracker[] }>(
      'GET',
      `/registros/tracker?clientId=${north}&search=${identifier}`,
    );
    const found = list.body.trackers.find((t) => t.identifier === identifier);
    if (!found) throw new Error(identifier);
    return found;
  }

  it('drops a back-dated fix far from the fixes before and after it', async () => {
    await createTracker(admin, { clientId: north, identifier: 'fone-passado', protocol: 'osmand' });
    const auth = `id=fone-passado&password=${DEVICE_PASSWORD}`;
    const t0 = secs(-600);
    expect((await get(`${auth}&lat=-8.0500&lon=-34.8800&timestamp=${t0}`)).status).toBe(200);
    expect((await get(`${auth}&lat=-8.0505&lon=-34.8805&timestamp=${t0 + 30}`)).status).toBe(200);
    expect((await get(`${auth}&lat=-8.0510&lon=-34.8810&timestamp=${t0 + 60}`)).status).toBe(200);
    // 17 km away, between the first two real fixes 30 s apart: acknowledged, never stored.
    const forged = await get(`${auth}&lat=-7.8980&lon=-34.8800&timestamp=${t0 + 15}`);
    expect(forged.status).toBe(200);
    // A late fix that fits its neighbours is stored in its place.
    expect((await get(`${auth}&lat=-8.0502&lon=-34.8802&timestamp=${t0 + 10}`)).status).toBe(200);
    const stored = await positions('fone-passado');
    expect(stored.map((p) => Number(p.latitude).toFixed(4))).toEqual([
      '-8.0500',
      '-8.0502',
      '-8.0505',
      '-8.0510',
    ]);
  });

  it('answers a different fix at a taken time as a conflict, a retransmission as a success', async () => {
    const phone = await createTracker(admin, {
      clientId: north,
      identifier: 'fone-conflito',
      protocol: 'osmand',
    });
    const auth = `id=fone-conflito&password=${DEVICE_PASSWORD}`;
    const t = secs(-120);
    expect((await get(`${auth}&lat=-8.0500&lon=-34.8800&timestamp=${t}`)).status).toBe(200);
    // The same fix again: the device lost our answer; still a success, stored once.
    expect((await get(`${auth}&lat=-8.0500&lon=-34.8800&timestamp=${t}`)).status).toBe(200);
    const before = server().deps.pipeline.stats().conflict;
    const other = await get(`${auth}&lat=-8.2000&lon=-34.9000&timestamp=${t}`);
    expect(other.status).toBe(409);
    expect(await other.text()).toBe('Conflito: outra posição do rastreador já ocupa este horário');
    expect(server().deps.pipeline.stats().conflict).toBe(before + 1);
    const stored = await positions('fone-conflito');
    expect(stored).toHaveLength(1);
    expect(Number(stored[0]?.latitude)).toBeCloseTo(-8.05, 4);
    expect((await trackerOf(phone.id)).communication).toMatchObject({
      conflicts: 1,
      lastRefusal: 'conflict',
    });
  });

  it('refuses an impostor Wialon IPS login and a tracker without a password', async () => {
    const truck = await createTracker(admin, {
      clientId: north,
      identifier: 'demo-impostor',
      protocol: 'wialon_ips',
    });
    await createTracker(admin, {
      clientId: north,
      identifier: 'sem-senha',
      protocol: 'wialon_ips',
      devicePassword: undefined,
    });
    const impostor = await WialonDevice.open(wialon.port);
    expect(await impostor.send(login2('demo-impostor', 'qualquer'))).toBe('#AL#0');
    expect(await impostor.send(login2('nao-existe-0'))).toBe('#AL#0');
    impostor.close();
    const open = await WialonDevice.open(wialon.port);
    expect(await open.send(login2('sem-senha', 'NA'))).toBe('#AL#0');
    open.close();
    const real = await WialonDevice.open(wialon.port);
    expect(await real.send(login2('demo-impostor'))).toBe('#AL#1');
    expect(await real.send(v2('D', dataBody(new Date(Date.now() - 5_000))))).toBe('#AD#1');
    real.close();
    await real.closed;
    expect((await trackerOf(truck.id)).communication).toMatchObject({
      lastKind: 'position',
      lastProtocol: 'wialon_ips',
      authenticated: true,
    });
  });

  it('never sends a block through a link that skipped its password', async () => {
    const vehicleId = await vehicle('SEN1A23');
    // No password at all: a command is refused at once, and says why.
    await createTracker(admin, {
      clientId: north,
      identifier: 'aberto-1',
      protocol: 'wialon_ips',
      devicePassword: undefined,
      allowUnauthenticated: true,
      vehicleId,
    });
    const device = await WialonDevice.open(wialon.port);
    expect(await device.send(v2('L', '2.0;aberto-1;NA;'))).toBe('#AL#1');
    const refused = await admin.call<{ message: string }>(
      'PUT',
      `/registros/commands/block?vehicleId=${vehicleId}`,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/não tem senha própria/);
    device.close();

    // A password, and "Aceitar sem senha" ticked: the command waits for a link that proves it.
    const other = await vehicle('SEN2B34');
    await createTracker(admin, {
      clientId: north,
      identifier: 'aberto-2',
      protocol: 'wialon_ips',
      allowUnauthenticated: true,
      vehicleId: other,
    });
    const unproven = await WialonDevice.open(wialon.port);
    expect(await unproven.send(v2('L', '2.0;aberto-2;NA;'))).toBe('#AL#1');
    const block = await admin.call<Command>('PUT', `/registros/commands/block?vehicleId=${other}`);
    expect(block.status).toBe(200);
    expect(block.body.status).toBe('pending');
    await expect(unproven.answer(1500)).rejects.toThrow('no answer');
    unproven.close();
    await unproven.closed;
    const proven = await WialonDevice.open(wialon.port);
    expect(await proven.send(login2('aberto-2'))).toBe('#AL#1');
    expect(await proven.answer()).toBe('L1=1');
    proven.close();
  });

  it('keeps the command link of a live device from a second login, and raises the alert', async () => {
    const vehicleId = await vehicle('DUP3C45');
    await createTracker(admin, {
      clientId: north,
      identifier: 'duplicado-1',
      protocol: 'wialon_ips',
      vehicleId,
    });
    const real = await WialonDevice.open(wialon.port);
    expect(await real.send(login2('duplicado-1'))).toBe('#AL#1');
    // The password leaked: a clone logs in from another address while the real one lives.
    const clone = await WialonDevice.open(wialon.port, '127.0.0.2');
    expect(await clone.send(login2('duplicado-1'))).toBe('#AL#1');
    const block = await admin.call<Command>(
      'PUT',
      `/registros/commands/block?vehicleId=${vehicleId}`,
    );
    expect(block.body.status).toBe('pending');
    // Both speak after the second login: two devices; the command goes to neither.
    expect(await real.send('#P#')).toBe('#AP#');
    expect(await clone.send('#P#')).toBe('#AP#');
    await expect(clone.answer(1500)).rejects.toThrow('no answer');
    expect(real.unread()).toEqual([]);
    // Raised as the second device speaks, beside the answer: read until it is there.
    await expect
      .poll(async () => {
        const alerts = await admin.call<{ items: { type: string }[] }>(
          'GET',
          `/registros/alerts?vehicleId=${vehicleId}&type=DUPLICATE_DEVICE`,
        );
        return alerts.body.items.length;
      })
      .toBe(1);
    // The clone goes silent (DEVICE_SESSION_LIVE_SECONDS) while the real one speaks: the
    // clone is closed and the command goes to the real device, which confirms it.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    expect(await real.send('#P#')).toBe('#AP#');
    await clone.closed;
    expect(await real.answer()).toBe('L1=1');
    real.close();
  });

  it('stores a Wialon IPS message without a GPS fix as telemetry at the last place', async () => {
    const vehicleId = await vehicle('NGP4D56');
    await createTracker(admin, {
      clientId: north,
      identifier: 'sem-gps-1',
      protocol: 'wialon_ips',
      vehicleId,
    });
    await admin.call('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Ignição',
      type: 'IGNITION_ON',
      params: {},
    });
    await admin.call('POST', '/registros/alert-rules', {
      clientId: north,
      name: 'Alimentação',
      type: 'DEVICE_POWER_DISCONNECTED',
      params: {},
    });
    const device = await WialonDevice.open(wialon.port);
    expect(await device.send(login2('sem-gps-1'))).toBe('#AL#1');
    const t = Date.now() - 60_000;
    const fixBody = dataBody(new Date(t), RECIFE, {
      speed: '0',
      inputs: '0',
      outputs: '0',
      params: 'ign:1:0,pwr_ext:2:12.6',
    });
    expect(await device.send(v2('D', fixBody))).toBe('#AD#1');
    // In a garage: no fix (every coordinate NA), the ignition on, the power cut.
    const { date, time } = (() => {
      const at = new Date(t + 20_000);
      const p = (n: number) => String(n).padStart(2, '0');
      return {
        date: `${p(at.getUTCDate())}${p(at.getUTCMonth() + 1)}${p(at.getUTCFullYear() % 100)}`,
        time: `${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}`,
      };
    })();
    const noFix = `${date};${time};NA;NA;NA;NA;NA;NA;NA;0;NA;0;0;;NA;ign:1:1,pwr_ext:2:0.0,bat:3:71;`;
    expect(await device.send(v2('D', noFix))).toBe('#AD#1');
    device.close();
    const stored = await positions('sem-gps-1');
    expect(stored).toHaveLength(2);
    expect(stored[1]).toMatchObject({ valid: false });
    expect(Number(stored[1]?.latitude)).toBeCloseTo(Number(stored[0]?.latitude), 9);
    const alerts = await admin.call<{ items: { type: string }[] }>(
      'GET',
      `/registros/alerts?vehicleId=${vehicleId}`,
    );
    const mine = alerts.body.items.map((a) => a.type);
    expect(mine).toEqual(expect.arrayContaining(['IGNITION_ON', 'DEVICE_POWER_DISCONNECTED']));
    const [location] = rowsOf<{ latitude: number; no_gps_since: Date | null; battery: number }>(
      await server().deps.database.db.execute(sql`
        select l.latitude, l.no_gps_since, l.battery from last_locations l
          join trackers t on t.id = l.tracker_id where t.identifier = 'sem-gps-1'`),
    );
    expect(Number(location?.latitude)).toBeCloseTo(Number(stored[0]?.latitude), 9);
    expect(location?.no_gps_since).not.toBeNull();
    // `bat` is the battery.
    expect(Number(location?.battery)).toBe(71);
  });

  it('hears Wialon IPS over UDP from a tracker let in without a password', async () => {
    await createTracker(admin, {
      clientId: north,
      identifier: '352094080000018',
      protocol: 'wialon_ips',
      devicePassword: undefined,
      allowUnauthenticated: true,
    });
    await createTracker(admin, {
      clientId: north,
      identifier: '352094080000026',
      protocol: 'wialon_ips',
    });
    const at = (s: number) => new Date(Date.now() - s * 1000);
    // 1.1: the identifier in front; 2.0: the version too, and the CRC of the packet's body.
    const { date, time } = (() => {
      const d = at(50);
      const p = (n: number) => String(n).padStart(2, '0');
      return {
        date: `${p(d.getUTCDate())}${p(d.getUTCMonth() + 1)}${p(d.getUTCFullYear() % 100)}`,
        time: `${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`,
      };
    })();
    expect(
      await udpExchange(wialon.port, `352094080000018#SD#${date};${time};${RECIFE};40;90;10;8`),
    ).toBe('#ASD#1');
    expect(await udpExchange(wialon.port, `2.0;352094080000018${v2('D', dataBody(at(40)))}`)).toBe(
      '#AD#1',
    );
    expect(await positions('352094080000018')).toHaveLength(2);
    // No password travels by UDP: a tracker that has one is not heard, as an unknown one.
    expect(await udpExchange(wialon.port, `2.0;352094080000026${v2('D', dataBody(at(30)))}`)).toBe(
      '#AD#-1',
    );
    expect(await positions('352094080000026')).toEqual([]);
    expect(udp.stats().received).toBeGreaterThanOrEqual(3);
  });

  it('answers a black box by what it registered, and never keeps a device stuck on one message', async () => {
    await createTracker(admin, {
      clientId: north,
      identifier: 'caixa-preta',
      protocol: 'wialon_ips',
    });
    const device = await WialonDevice.open(wialon.port);
    expect(await device.send(login2('caixa-preta'))).toBe('#AL#1');
    const base = Date.now() - 3_600_000;
    const message = (k: number) => dataBody(new Date(base + k * 10_000)).slice(0, -1);
    // Ten messages, one with a latitude of 64 minutes: the nine good ones are stored.
    const bad = message(4).replace(RECIFE, '0864.0000;S;03452.8660;W');
    const box = [...[0, 1, 2, 3].map(message), bad, ...[5, 6, 7, 8, 9].map(message)];
    expect(await device.send(v2('B', `${box.join('|')}|`))).toBe('#AB#9');
    expect(await positions('caixa-preta')).toHaveLength(9);
    // The device keeps what was not counted and sends it again: now it is counted as
    // received (logged and counted as refused), so the device moves on.
    expect(await device.send(v2('B', `${bad}|`))).toBe('#AB#1');
    // A queue whose only message is impossible: not counted once, then let go.
    const alone = message(10).replace(RECIFE, '0803.2340;S;18452.8660;W');
    expect(await device.send(v2('B', `${alone}|`))).toBe('#AB#0');
    expect(await device.send(v2('B', `${alone}|`))).toBe('#AB#1');
    expect(await positions('caixa-preta')).toHaveLength(9);
    device.close();
  });

  it('lists identifiers that tried to connect for the administrator only', async () => {
    await get(`id=quem-sou-eu&password=x12345&lat=-8&lon=-34&timestamp=${secs(-10)}`);
    const device = await WialonDevice.open(wialon.port);
    expect(await device.send(login2('desconhecido-tcp'))).toBe('#AL#0');
    device.close();
    const list = await admin.call<UnknownDevicePage>('GET', '/registros/unknown-devices');
    expect(list.status).toBe(200);
    const byId = new Map(list.body.unknownDevices.map((d) => [d.identifier, d]));
    expect(byId.get('quem-sou-eu')).toMatchObject({ protocol: 'osmand', attempts: 1 });
    expect(byId.get('desconhecido-tcp')).toMatchObject({ protocol: 'wialon_ips' });
    expect(byId.get('quem-sou-eu')?.lastAddress).toContain('127.0.0.1');
    const operator = await as(server(), 'operador@rastro.demo');
    expect((await operator.call('GET', '/registros/unknown-devices')).status).toBe(403);
    // Created as a tracker, it leaves the list.
    await createTracker(admin, { clientId: north, identifier: 'quem-sou-eu', protocol: 'osmand' });
    const again = await admin.call<UnknownDevicePage>('GET', '/registros/unknown-devices');
    expect(again.body.unknownDevices.map((d) => d.identifier)).not.toContain('quem-sou-eu');
  });
});
