/**
 * Commands reach our own trackers or say why not, over real Wialon IPS sockets: a block goes
 * out on the device's open connection as `L1=1` and is confirmed by the outputs it reports;
 * a command for a device that is away waits and goes out at its login, or expires; a command
 * created by another server process (sharing the database) is picked up by the poll; an
 * OsmAnd tracker is refused at once and nothing is queued.
 */
import { connect, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDownlink, type Downlink } from '../../server/ingest/downlink';
import { startWialon, type WialonListener } from '../../server/ingest/wialon/tcp';
import { rowsOf } from '../../server/platform/db/client';
import { createLogger } from '../../server/platform/log';
import {
  COMMAND_STATUS_LABELS,
  type Command,
  type Tracker,
  type TrackerType,
  type Vehicle,
} from '../../src/contract';
import type { CommandHistory } from './api-types';
import { DEVICE_PASSWORD } from './devices';
import { as, backends, demoClients, type ErrorBody, type TestServer, useServer } from './harness';

/** A Wialon IPS device: reads every line the server sends, answers and commands alike. */
class Device {
  lines: string[] = [];
  private buffered = '';
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let end = this.buffered.indexOf('\r\n'); end >= 0; end = this.buffered.indexOf('\r\n')) {
        this.lines.push(this.buffered.slice(0, end));
        this.buffered = this.buffered.slice(end + 2);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(port: number) {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
    return new Device(socket);
  }

  /** Waits for a line matching `pattern` and takes it. */
  async take(pattern: RegExp): Promise<string> {
    for (;;) {
      const at = this.lines.findIndex((line) => pattern.test(line));
      if (at >= 0) return this.lines.splice(at, 1)[0] as string;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async send(packet: string, answer: RegExp) {
    this.socket.write(`${packet}\r\n`);
    return this.take(answer);
  }

  /** Extended data reporting the state of its outputs (`#D#`, or one `#B#` black box message). */
  report(outputs: number, secondsAgo = 5, packet: 'D' | 'B' = 'D') {
    const d = new Date(Date.now() - secondsAgo * 1000);
    const p = (n: number) => String(n).padStart(2, '0');
    const date = `${p(d.getUTCDate())}${p(d.getUTCMonth() + 1)}${p(d.getUTCFullYear() % 100)}`;
    const time = `${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
    return this.send(
      `#${packet}#${date};${time};0803.2340;S;03452.8660;W;0;0;10;8;1.0;0;${outputs};NA;NA;NA`,
      packet === 'D' ? /^#AD#/ : /^#AB#/,
    );
  }

  close() {
    this.socket.destroy();
  }
}

describe.each(await backends())('commands to our own trackers on %s', (backend) => {
  const server = useServer(backend, () => ({ COMMAND_CONFIRM_TIMEOUT_SECONDS: '60' }));
  let listener: WialonListener;
  let downlink: Downlink;

  beforeAll(async () => {
    const s = server();
    downlink = s.deps.downlink;
    listener = await startWialon({
      port: 0,
      host: '127.0.0.1',
      pipeline: s.deps.pipeline,
      downlink,
      log: createLogger('silent'),
    });
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  async function vehicleWithTracker(s: TestServer, plate: string, identifier: string, extra = {}) {
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    const vehicle = await admin.call<Vehicle>('POST', '/registros/vehicle', {
      clientId: north,
      name: `Caminhão ${plate}`,
      plate,
      type: 'truck',
    });
    const tracker = await admin.call<Tracker>('POST', '/registros/tracker', {
      clientId: north,
      identifier,
      provider: 'rastro',
      vehicleId: vehicle.body.id,
      // Commands go only to a device that proves its password.
      devicePassword: DEVICE_PASSWORD,
      ...extra,
    });
    expect(tracker.status).toBe(201);
    return { vehicle: vehicle.body.id, tracker: tracker.body.id };
  }

  const history = async (vehicle: string) => {
    const admin = await as(server(), 'admin@rastro.demo');
    return (await admin.call<CommandHistory>('GET', `/registros/commands?vehicleId=${vehicle}`))
      .body.commands;
  };

  it('blocks a connected device at once and confirms it from its outputs', async () => {
    const { vehicle } = await vehicleWithTracker(server(), 'CMD1A11', 'cmd-online');
    const device = await Device.open(listener.port);
    await device.send(`#L#cmd-online;${DEVICE_PASSWORD}`, /^#AL#1$/);
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const res = await operator.call('PUT', `/registros/commands/block?vehicleId=${vehicle}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'block', integration: 'rastro', status: 'sent' });
    expect(await device.take(/^L\d=/)).toBe('L1=1');
    // A report from before the command took effect confirms nothing.
    await device.report(0);
    expect((await history(vehicle))[0]).toMatchObject({ status: 'sent' });
    // Nor a black box fix from an hour ago whose outputs show L1 on (an older block).
    expect(await device.report(1, 3600, 'B')).toBe('#AB#1');
    expect((await history(vehicle))[0]).toMatchObject({ status: 'sent' });
    // A live packet does, whatever its time (a device with no GPS lock repeats its last one).
    await device.report(1, 3590);
    const [confirmed] = await history(vehicle);
    expect(confirmed).toMatchObject({
      status: 'confirmed',
      detail: 'Confirmado pelo rastreador (estado das saídas).',
    });
    expect(COMMAND_STATUS_LABELS[confirmed?.status as 'confirmed']).toBe('Confirmado');

    const unblock = await operator.call<Command>(
      'PUT',
      `/registros/commands/unblock?vehicleId=${vehicle}`,
    );
    expect(unblock.body.status).toBe('sent');
    expect(await device.take(/^L\d=/)).toBe('L1=0');
    await device.report(0, 0);
    expect((await history(vehicle))[0]).toMatchObject({ kind: 'unblock', status: 'confirmed' });
    device.close();
  });

  it('keeps a command for a device that is away and sends it at its login', async () => {
    const { vehicle } = await vehicleWithTracker(server(), 'CMD2B22', 'cmd-away');
    const admin = await as(server(), 'admin@rastro.demo');
    const res = await admin.call('PUT', `/registros/commands/block?vehicleId=${vehicle}`);
    expect(res.body).toMatchObject({
      status: 'pending',
      detail: 'Aguardando a conexão do rastreador para enviar.',
    });
    const device = await Device.open(listener.port);
    await device.send(`#L#cmd-away;${DEVICE_PASSWORD}`, /^#AL#1$/);
    expect(await device.take(/^L\d=/)).toBe('L1=1');
    await expect.poll(async () => (await history(vehicle))[0]?.status).toBe('sent');
    device.close();
  });

  it('fails a sent command the device never confirms, and expires one it never came for', async () => {
    const { vehicle } = await vehicleWithTracker(server(), 'CMD3C33', 'cmd-silent');
    const device = await Device.open(listener.port);
    await device.send(`#L#cmd-silent;${DEVICE_PASSWORD}`, /^#AL#1$/);
    const admin = await as(server(), 'admin@rastro.demo');
    await admin.call('PUT', `/registros/commands/block?vehicleId=${vehicle}`);
    expect(await device.take(/^L\d=/)).toBe('L1=1');
    device.close();
    await expect.poll(() => listener.stats().connections).toBe(0);
    await admin.call('PUT', `/registros/commands/unblock?vehicleId=${vehicle}`);
    // Time passes: the confirmation window and the expiry run out.
    await server().deps.database.db.execute(sql`
      update commands set sent_at = now() - interval '2 minutes',
          expires_at = now() - interval '1 second'
        where vehicle_id = ${vehicle}::uuid`);
    await downlink.sweep();
    const [unblock, block] = await history(vehicle);
    expect(block).toMatchObject({
      status: 'failed',
      detail: 'Sem confirmação do rastreador em 60 s.',
    });
    expect(unblock).toMatchObject({ status: 'expired' });
    expect(unblock?.detail).toMatch(/^Expirou: o rastreador não se conectou em 24 horas\./);
    expect(COMMAND_STATUS_LABELS.expired).toBe('Expirado');
    // An expired command is never sent later.
    const again = await Device.open(listener.port);
    await again.send(`#L#cmd-silent;${DEVICE_PASSWORD}`, /^#AL#1$/);
    expect(await again.send('#P#', /^#AP#$/)).toBe('#AP#');
    expect(again.lines.filter((line) => line.startsWith('L'))).toEqual([]);
    again.close();
  });

  it('sends commands that another server process stored, on its poll', async () => {
    const { vehicle } = await vehicleWithTracker(server(), 'CMD4D44', 'cmd-elsewhere');
    // This process holds the device's connection through its own downlink.
    const here = createDownlink(
      server().deps.database.db,
      server().config.commands,
      createLogger('silent'),
    );
    const other = await startWialon({
      port: 0,
      host: '127.0.0.1',
      pipeline: server().deps.pipeline,
      downlink: here,
      log: createLogger('silent'),
    });
    const device = await Device.open(other.port);
    await device.send(`#L#cmd-elsewhere;${DEVICE_PASSWORD}`, /^#AL#1$/);
    const admin = await as(server(), 'admin@rastro.demo');
    const res = await admin.call<Command>('PUT', `/registros/commands/block?vehicleId=${vehicle}`);
    expect(res.body.status).toBe('pending');
    await here.sweep();
    expect(await device.take(/^L\d=/)).toBe('L1=1');
    // Another sweep does not send it twice.
    await here.sweep();
    expect(await device.send('#P#', /^#AP#$/)).toBe('#AP#');
    expect(device.lines.filter((line) => line.startsWith('L'))).toEqual([]);
    device.close();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  });

  it('refuses at once, and queues nothing, for a tracker that speaks OsmAnd', async () => {
    const { vehicle, tracker } = await vehicleWithTracker(server(), 'CMD5E55', 'cmd-osmand');
    await server().deps.pipeline.accept(
      'cmd-osmand',
      [{ fixTime: new Date(Date.now() - 1000), latitude: -8.05, longitude: -34.9, attributes: {} }],
      'osmand',
    );
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const res = await operator.call<ErrorBody>(
      'PUT',
      `/registros/commands/block?vehicleId=${vehicle}`,
    );
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'Este rastreador envia posições pelo protocolo OsmAnd (HTTP), que não recebe comandos. Nada foi enviado.',
    );
    expect(await history(vehicle)).toEqual([]);
    const [row] = rowsOf<{ n: number }>(
      await server().deps.database.db.execute(
        sql`select count(*)::int as n from commands where tracker_id = ${tracker}::uuid`,
      ),
    );
    expect(row?.n).toBe(0);
    // Enabling and disabling is Rastro's own flag: applied, whatever the protocol.
    const off = await operator.call('PUT', '/registro/commands/disableDevice', {
      trackerId: tracker,
    });
    expect(off.body).toMatchObject({
      kind: 'disable',
      status: 'confirmed',
      detail: 'Aplicado no Rastro.',
    });
  });

  it('refuses for a tracker whose type is OsmAnd before it ever reported', async () => {
    const admin = await as(server(), 'admin@rastro.demo');
    const type = await admin.call<TrackerType>('POST', '/registros/tracker-types', {
      manufacturer: 'Traccar',
      model: 'Client',
      protocol: 'osmand',
    });
    const { vehicle } = await vehicleWithTracker(server(), 'CMD6F66', 'cmd-osmand-type', {
      trackerTypeId: type.body.id,
    });
    const res = await admin.call('PUT', `/registros/commands/block?vehicleId=${vehicle}`);
    expect(res.status).toBe(409);
    expect(await history(vehicle)).toEqual([]);
  });
});
