/**
 * Trackers of the makers' protocols as an installer registers them: a model of each family
 * among the tracker types binds the protocol; no device password is asked (the IMEI on its
 * protocol is the device's proof) even with DEVICE_AUTH=required; a Queclink command password
 * is write-only and refused when its syntax could break the command; the connection settings
 * name each listener's port.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fixedReport } from '../../server/ingest/native/queclink-device';
import type { DeviceSettings, Tracker, TrackerType } from '../../src/contract';
import { createTracker } from './devices';
import { as, backends, demoClients, useServer } from './harness';

describe.each(await backends())("the makers' trackers on %s", (backend) => {
  const server = useServer(backend, () => ({
    SEED_DEMO_FLEET: 'true',
    GT06_PORT: '0',
    SUNTECH_PORT: '0',
    TELTONIKA_PORT: '0',
    QUECLINK_PORT: '0',
  }));

  it('offers a model of each family, and a tracker of that model speaks its protocol', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const { north } = await demoClients(server());
    const types = await admin.call<{ trackerTypes: TrackerType[] }>(
      'GET',
      '/registros/tracker-types?limit=100',
    );
    const byModel = new Map(
      types.body.trackerTypes.map((t) => [`${t.manufacturer} ${t.model}`, t]),
    );
    for (const [model, protocol] of [
      ['Concox GT06N', 'gt06'],
      ['Suntech ST300', 'suntech'],
      ['Teltonika FMB130', 'teltonika'],
      ['Queclink GV300', 'queclink'],
    ])
      expect(byModel.get(model ?? '')?.protocol, model).toBe(protocol);
    const res = await admin.call<Tracker>('POST', '/registros/tracker', {
      clientId: north,
      identifier: '359710049095095',
      provider: 'rastro',
      trackerTypeId: byModel.get('Concox GT06N')?.id ?? '',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ protocol: 'gt06', devicePasswordSet: false });
  });

  it('keeps a Queclink command password write-only, and refuses one that breaks a command', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const { north } = await demoClients(server());
    const tracker = await createTracker(admin, {
      clientId: north,
      identifier: '862061040000019',
      protocol: 'queclink',
      devicePassword: undefined,
    });
    expect(tracker.commandPasswordSet).toBe(false);
    const bad = await admin.call<{ message: string }>('PATCH', `/registros/tracker/${tracker.id}`, {
      commandPassword: 'gv300,1',
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Senha de comandos inválida');
    const good = await admin.call<Tracker>('PATCH', `/registros/tracker/${tracker.id}`, {
      commandPassword: 'frt77',
    });
    expect(good.status).toBe(200);
    expect(good.body.commandPasswordSet).toBe(true);
    expect(JSON.stringify(good.body)).not.toContain('frt77');
  });

  it("names each makers' listener in the connection settings", async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const settings = await admin.call<DeviceSettings>('GET', '/registros/device-settings');
    expect(settings.status).toBe(200);
    // As configured (here 0: a free port each; a real server gives 5023, 5011, 5027, 5004).
    expect(settings.body.ports).toEqual({
      osmand: null,
      wialon_ips: null,
      gt06: 0,
      suntech: 0,
      teltonika: 0,
      queclink: 0,
    });
  });

  it('looks up the logins of a fleet reconnecting at once together, each its own', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const { north } = await demoClients(server());
    const known = await createTracker(admin, {
      clientId: north,
      identifier: '867530900000017',
      protocol: 'teltonika',
      devicePassword: undefined,
    });
    const asked = ['867530900000017', 'nao-existe-1', '867530900000017', 'nao-existe-2'];
    const found = await Promise.all(asked.map((id) => server().deps.pipeline.device(id)));
    expect(found.map((login) => login?.id ?? null)).toEqual([known.id, null, known.id, null]);
    expect(found[0]).toMatchObject({ protocol: 'teltonika', passwordHash: null });
  });

  it('acknowledges a Queclink report it cannot read, once the device is known, so that it moves on', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const { north } = await demoClients(server());
    const imei = '862061040000027';
    await createTracker(admin, {
      clientId: north,
      identifier: imei,
      protocol: 'queclink',
      devicePassword: undefined,
    });
    const socket = connect(server().nativePorts.queclink ?? 0, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let heard = '';
    socket.on('data', (chunk: Buffer) => {
      heard += chunk.toString('latin1');
    });
    const until = async (text: string) => {
      for (let i = 0; i < 100 && !heard.includes(text); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      return heard.includes(text);
    };
    const place = { latitude: -8.05, longitude: -34.88, speed: 20, course: 90, ignition: true };
    const at = new Date(Date.now() - 60_000);
    // A sound report names the device; then one whose body no layout reads (a position group
    // cut short), with a sound header and count; then a sound one again.
    socket.write(fixedReport([{ ...place, fixTime: at }], { imei, count: 0x10 }));
    expect(await until('+SACK:0010$')).toBe(true);
    const broken = fixedReport([{ ...place, fixTime: at }], { imei, count: 0x11 }).replace(
      /,10,1,[^,]*,[^,]*,[^,]*,/,
      ',10,3,',
    );
    socket.write(broken);
    expect(await until('+SACK:0011$')).toBe(true);
    socket.write(
      fixedReport([{ ...place, fixTime: new Date(at.getTime() + 10_000) }], { imei, count: 0x12 }),
    );
    expect(await until('+SACK:0012$')).toBe(true);
    socket.destroy();
  });
});
