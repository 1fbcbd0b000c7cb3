/**
 * Teltonika FMB devices over real TCP and UDP sockets against a real server: the IMEI login and
 * its one-byte answer, AVL packets (Codec 8 and 8 Extended) stored and answered with their
 * record count, the keep-alive ping, alarms, black-box batches, damaged packets, refusals, a
 * Codec 12 block command and the device's answer, UDP datagrams, and some noise.
 *
 * The packets are written by hand from Teltonika's "Data Sending Protocols" document (the
 * examples of the document itself where it has them), so that the device helpers
 * (teltonika-device.ts) and the codec cannot agree on a mistake.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Decoded } from '../../server/ingest/native/codec';
import { crc16Ibm, teltonika } from '../../server/ingest/native/teltonika';
import * as device from '../../server/ingest/native/teltonika-device';
import { rowsOf } from '../../server/platform/db/client';
import { createTracker } from './devices';
import { as, backends, demoClients, useServer } from './harness';
import {
  createNativeTracker,
  createVehicle,
  hex,
  lastCommand,
  NativeDevice,
  nativePort,
  sendCommand,
  storedPositions,
  udpExchange,
} from './native-device';

/** The document's login example: IMEI 356307042441013. */
const LOGIN_DOC = hex('000F', '333536333037303432343431303133');

/** The document's Codec 8 example: one record of 2019-06-10, no GPS fix, four IO groups. */
const CODEC8_DOC = hex(
  '00000000 00000036 08 01',
  '0000016B40D8EA30 01 00000000 00000000 0000 0000 00 0000',
  '01 05 02 1503 0101 01 425E0F 01 F10000601A 01 4E0000000000000000',
  '01 0000C7CF',
);

/** The document's Codec 8 Extended example. */
const CODEC8E_DOC = hex(
  '00000000 0000004A 8E 01',
  '0000016B412CEE00 01 00000000 00000000 0000 0000 00 0000',
  '0001 0005 0001 0001 01 0001 0011 001D 0001 0010 015E2C88',
  '0002 000B 000000003544C87A 000E 000000001DD7E06A 0000',
  '01 00002994',
);

/** The document's UDP example (IMEI 352093086403655) and its answer. */
const UDP_IMEI = '352093086403655';
const UDP_DOC = hex(
  '003D CAFE 01 05 000F 333532303933303836343033363535',
  '08 01 0000016B4F815B30 01 00000000 00000000 0000 0000 00 0000',
  '01 03 02 1503 0101 01 425DBC 00 00',
  '01',
);
const UDP_DOC_ANSWER = hex('0005 CAFE 01 05 01');

/**
 * A Codec 8 position in Recife at 2026-11-28T12:00:00Z, 42 km/h heading 90°, 9 satellites:
 * ignition, movement, DIN1, DOUT1 on; battery 87 %, GSM 4, fuel 55 %; external 12.345 V,
 * battery 4.1 V, engine 88.3 °C at 1500 rpm; odometer 123456 m, engine worktime 600 min;
 * iButton 00000A1B2C3D4E5F. CRC-16/IBM computed apart (and the CRC checked on the examples).
 */
const POSITION = hex(
  '00000000 0000004E 08 01',
  '000001A22206CA00 00 EB362ED8 FB31AF10 000C 005A 09 002A',
  '00 0E',
  '07 EF01 F001 0101 B301 7157 1504 5937',
  '04 423039 431004 730373 5505DC',
  '02 100001E240 6600000258',
  '01 4E00000A1B2C3D4E5F',
  '01 00000D0D',
);
const POSITION_TIME = Date.UTC(2026, 10, 28, 12, 0, 0);

/**
 * A Codec 8 Extended panic record (priority 2) at 12:05, event DIN2: DIN2 on, ignition off,
 * ignition-on counter 3600 s, 7 satellites, standing.
 */
const PANIC = hex(
  '00000000 00000035 8E 01',
  '000001A2220B5DE0 02 EB362ED8 FB31AF10 0000 0000 07 0000',
  '0002 0003',
  '0002 0002 01 00EF 00',
  '0000',
  '0001 01C1 00000E10',
  '0000 0000',
  '01 0000BF67',
);

/** Codec 12 commands `setdigout 1?` and `setdigout 0?`, and the device's answer. */
const BLOCK = hex('00000000 00000014 0C 01 05 0000000C 7365746469676F757420313F 01 0000DED1');
const UNBLOCK = hex('00000000 00000014 0C 01 05 0000000C 7365746469676F757420303F 01 00001E80');
const ANSWER_OK = hex(
  '00000000 0000001D 0C 01 06 00000015 444F5554313A3120444F5554323A49474E4F524544 01 00001E9E',
);

const ctx = { identifier: undefined, transport: 'tcp' as const, now: new Date() };
const ONE = hex('00000001');

describe('Teltonika codec on the document examples', () => {
  it('checks CRC-16/IBM as the document computes it', () => {
    expect(crc16Ibm(Buffer.from('123456789'))).toBe(0xbb3d);
    expect(crc16Ibm(CODEC8_DOC.subarray(8, CODEC8_DOC.length - 4))).toBe(0xc7cf);
  });

  it('reads the login, Codec 8 and Codec 8 Extended examples', () => {
    expect(teltonika.frame(LOGIN_DOC, false)).toEqual({ frame: LOGIN_DOC, length: 17 });
    expect(teltonika.decode(LOGIN_DOC, ctx)).toEqual({
      identifier: '356307042441013',
      login: true,
      fixes: [],
      reply: hex('01'),
    });
    const c8 = teltonika.decode(CODEC8_DOC, ctx);
    expect(c8.reply).toEqual(ONE);
    expect(c8.fixes).toEqual([
      {
        fixTime: new Date(0x16b40d8ea30),
        latitude: 0,
        longitude: 0,
        speed: 0,
        course: 0,
        altitude: 0,
        valid: false,
        attributes: {
          sat: 0,
          priority: 1,
          event: 1,
          din1: true,
          power: 24.079,
          rssi: 3,
          io241: 24602,
        },
      },
    ]);
    const c8e = teltonika.decode(CODEC8E_DOC, ctx);
    expect(c8e.reply).toEqual(ONE);
    expect(c8e.fixes[0]?.attributes).toEqual({
      sat: 0,
      priority: 1,
      event: 1,
      din1: true,
      odometer: 22949000,
      io17: 29,
      io11: 893700218,
      io14: 500686954,
    });
  });

  it('reads the UDP example and answers it as the document shows', () => {
    const [message] = teltonika.datagram?.(UDP_DOC, { ...ctx, transport: 'udp' }) ?? [];
    expect(message?.identifier).toBe(UDP_IMEI);
    expect(message?.fixes).toHaveLength(1);
    expect(message?.reply).toEqual(UDP_DOC_ANSWER);
  });

  it('writes the document Codec 12 getinfo command, and the block commands', () => {
    const id = { identifier: '356307042441013', serial: 1, password: undefined };
    expect(teltonika.encodeCommand('getinfo', id)).toEqual(
      hex('000000000000000F0C010500000007676574696E666F0100004312'),
    );
    expect(teltonika.encodeCommand('setdigout 1?', id)).toEqual(BLOCK);
    expect(teltonika.encodeCommand('setdigout 0?', id)).toEqual(UNBLOCK);
    // Another family's payload is no Teltonika command.
    expect(teltonika.encodeCommand('RELAY,1#', id)).toBeUndefined();
  });

  it('reads a position with its IO elements under Rastro names', () => {
    const { fixes, reply } = teltonika.decode(POSITION, ctx);
    expect(reply).toEqual(ONE);
    expect(fixes).toEqual([
      {
        fixTime: new Date(POSITION_TIME),
        latitude: -8.063,
        longitude: -34.87706,
        speed: 42,
        course: 90,
        altitude: 12,
        valid: true,
        ignition: true,
        battery: 87,
        driverRfid: '00000A1B2C3D4E5F',
        attributes: {
          sat: 9,
          priority: 0,
          event: 0,
          motion: true,
          din1: true,
          out1: true,
          power: 12.345,
          batteryVoltage: 4.1,
          odometer: 123456,
          hours: 36000,
          rssi: 4,
          fuelLevel: 55,
          rpm: 1500,
          engineTemp: 88.3,
        },
      },
    ]);
    const panic = teltonika.decode(PANIC, ctx).fixes[0];
    expect(panic).toMatchObject({ ignition: false, valid: true, speed: 0 });
    expect(panic?.attributes).toEqual({
      sat: 7,
      priority: 2,
      event: 2,
      in2: true,
      hours: 3600,
      alarm: 'sos',
    });
  });

  it('reads the answer to a command', () => {
    expect(teltonika.decode(ANSWER_OK, ctx)).toEqual({
      fixes: [],
      answer: { ok: true, text: 'DOUT1:1 DOUT2:IGNORED' },
    });
    const refused = teltonika.decode(device.commandAnswer('DOUT1 Is disabled from CFG'), ctx);
    expect(refused.answer).toEqual({ ok: false, text: 'DOUT1 Is disabled from CFG' });
  });

  it('splits a stream, waits on short input, resyncs on noise, bounds lengths', () => {
    const stream = Buffer.concat([LOGIN_DOC, CODEC8_DOC]);
    expect(teltonika.frame(stream.subarray(0, 10), false)).toBeUndefined();
    expect(teltonika.frame(CODEC8_DOC.subarray(0, 30), true)).toBeUndefined();
    expect(teltonika.frame(CODEC8_DOC, true)).toEqual({ frame: CODEC8_DOC, length: 66 });
    expect(teltonika.frame(hex('FF'), true)).toEqual({ frame: hex('FF'), length: 1 });
    expect(teltonika.frame(Buffer.from('hello\x00\x00'), true)).toEqual({ skip: 5 });
    // A declared length past what the listener would hold: not waited for.
    expect(teltonika.frame(hex('00000000 00010000 08'), true)).toEqual({ skip: 1 });
    // An IMEI packet of letters is noise.
    expect(teltonika.frame(hex('000F 41424344'), false)).toEqual({ skip: 6 });
    expect(teltonika.frame(hex('000F 414243 00 000F'), false)).toEqual({ skip: 5 });
    for (let i = 0; i < 2000; i += 1) {
      const noise = Buffer.from(
        Array.from({ length: (i % 40) + 1 }, () => (Math.random() * 256) | 0),
      );
      expect(() => teltonika.frame(noise, i % 2 === 0)).not.toThrow();
    }
  });

  it('refuses damaged packets with a CodecError and no answer', () => {
    const bad = Buffer.from(POSITION);
    bad[30] = (bad[30] ?? 0) ^ 0xff;
    expect(() => teltonika.decode(bad, ctx)).toThrow(/CRC/);
    expect(() => teltonika.decode(POSITION.subarray(0, 40), ctx)).toThrow();
    for (let cut = 2; cut < POSITION.length; cut += 7)
      expect(() => teltonika.decode(POSITION.subarray(0, cut), ctx)).toThrow();
  });

  it('builds what the device helpers send as the decoder reads it', () => {
    const at = new Date(POSITION_TIME);
    const sent = device.position({
      fixTime: at,
      latitude: -8.063,
      longitude: -34.87706,
      speed: 42,
      course: 90,
      ignition: true,
      battery: 80,
      driverRfid: 'ABCDEF',
      alarm: 'hardBraking',
    });
    const [fix] = teltonika.decode(sent, ctx).fixes as Decoded['fixes'];
    expect(fix).toMatchObject({
      fixTime: at,
      ignition: true,
      battery: 80,
      driverRfid: '0000000000ABCDEF',
      attributes: { alarm: 'hardBraking' },
    });
    expect(device.readCommand(BLOCK)).toBe('setdigout 1?');
  });
});

const IMEI = '356307042441013';
const IMEI_ALARM = '356307042441021';
const IMEI_BOX = '356307042441039';
const IMEI_BAD = '356307042441047';
const IMEI_CMD = '356307042441054';
const IMEI_WIALON = '356307042441062';
const IMEI_FUZZ = '356307042441070';
const IMEI_UNKNOWN = '356307042441088';

describe.each(await backends())('Teltonika devices on %s', (backend) => {
  const server = useServer(backend, () => ({ TELTONIKA_PORT: '0' }));
  let port = 0;
  let cmdVehicle = '';
  const trackerIds = new Map<string, string>();

  beforeAll(async () => {
    const s = server();
    port = nativePort(s, 'teltonika');
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    cmdVehicle = await createVehicle(admin, north, 'TEL1C11');
    for (const identifier of [IMEI, IMEI_ALARM, IMEI_BOX, IMEI_BAD, IMEI_FUZZ, UDP_IMEI]) {
      const tracker = await createNativeTracker(admin, {
        clientId: north,
        identifier,
        protocol: 'teltonika',
      });
      trackerIds.set(identifier, tracker.id);
    }
    await createNativeTracker(admin, {
      clientId: north,
      identifier: IMEI_CMD,
      protocol: 'teltonika',
      vehicleId: cmdVehicle,
    });
    await createTracker(admin, {
      clientId: north,
      identifier: IMEI_WIALON,
      protocol: 'wialon_ips',
    });
  });

  const stored = (identifier: string) => storedPositions(server(), identifier);

  const login = async (imei: string) => {
    const d = await NativeDevice.open(port);
    expect(await d.send(device.login(imei), 1)).toEqual(hex('01'));
    return d;
  };

  it('accepts the IMEI with 0x01 and stores a position with its readings', async () => {
    const d = await NativeDevice.open(port);
    expect(await d.send(LOGIN_DOC, 1)).toEqual(hex('01'));
    expect(await d.send(POSITION, 4)).toEqual(ONE);
    const [row] = await stored(IMEI);
    expect(row).toMatchObject({
      epoch: POSITION_TIME / 1000,
      latitude: -8.063,
      longitude: -34.87706,
      speed: 42,
      course: 90,
      altitude: 12,
      ignition: true,
      battery: 87,
      driver_rfid: '00000A1B2C3D4E5F',
    });
    expect(row?.valid).not.toBe(false);
    expect(row?.attributes).toMatchObject({
      sat: 9,
      din1: true,
      out1: true,
      power: 12.345,
      batteryVoltage: 4.1,
      odometer: 123456,
      hours: 36000,
      fuelLevel: 55,
      rpm: 1500,
      engineTemp: 88.3,
    });
    // The same packet again (the device missed the answer): answered, stored once.
    expect(await d.send(POSITION, 4)).toEqual(ONE);
    expect(await stored(IMEI)).toHaveLength(1);
    d.close();
  });

  it('takes the keep-alive ping without answering it', async () => {
    const d = await login(IMEI_BAD);
    d.write(device.heartbeat());
    expect(await d.quiet()).toEqual(Buffer.alloc(0));
    await server().deps.devices.flush();
    const [status] = rowsOf<{ last_kind: string }>(
      await server().deps.database.db.execute(
        sql`select last_kind from device_status where tracker_id = ${trackerIds.get(IMEI_BAD)}::uuid`,
      ),
    );
    expect(status?.last_kind).toBe('heartbeat');
    // The link is still open and answering.
    const at = new Date(Date.now() - 60_000);
    const fix = {
      fixTime: at,
      latitude: -8.05,
      longitude: -34.9,
      speed: 0,
      course: 0,
      ignition: false,
    };
    expect(await d.send(device.position(fix), 4)).toEqual(ONE);
    d.close();
  });

  it('stores the alarms: a panic record, and jamming from the device helpers', async () => {
    const d = await login(IMEI_ALARM);
    expect(await d.send(PANIC, 4)).toEqual(ONE);
    const jam = device.position({
      fixTime: new Date(Date.now() - 30_000),
      latitude: -8.0631,
      longitude: -34.8771,
      speed: 10,
      course: 45,
      ignition: true,
      alarm: 'jamming',
    });
    expect(await d.send(jam, 4)).toEqual(ONE);
    const cut = device.position({
      fixTime: new Date(Date.now() - 20_000),
      latitude: -8.0632,
      longitude: -34.8772,
      speed: 0,
      course: 45,
      ignition: false,
      alarm: 'powerCut',
    });
    expect(await d.send(cut, 4)).toEqual(ONE);
    const rows = await stored(IMEI_ALARM);
    expect(rows.map((r) => r.attributes.alarm)).toEqual(['sos', 'jamming', 'powerCut']);
    expect(rows[0]?.attributes).toMatchObject({ priority: 2, in2: true, hours: 3600 });
    expect(rows[0]?.ignition).toBe(false);
    expect(rows[2]?.attributes.powerCut).toBe(true);
    d.close();
  });

  it('stores a black-box batch in fix-time order and answers its record count', async () => {
    const d = await login(IMEI_BOX);
    const base = Date.now() - 3_600_000;
    const at = (minutes: number) => ({
      fixTime: new Date(base + minutes * 60_000),
      latitude: -8.06 - minutes * 0.001,
      longitude: -34.88,
      speed: 30,
      course: 180,
      ignition: true,
    });
    // Sent newest first, as a device emptying its memory may.
    const batch = device.blackBox([at(3), at(1), at(2), at(0), at(4)]);
    expect(await d.send(batch, 4)).toEqual(hex('00000005'));
    const rows = await stored(IMEI_BOX);
    expect(rows.map((r) => r.epoch)).toEqual(
      [0, 1, 2, 3, 4].map((m) => Math.floor((base + m * 60_000) / 1000)),
    );
    expect(rows.map((r) => r.latitude)).toEqual([-8.06, -8.061, -8.062, -8.063, -8.064]);
    // Codec 8 Extended too.
    const ext = device.blackBox([at(5), at(6)], device.CODEC_8E);
    expect(await d.send(ext, 4)).toEqual(hex('00000002'));
    expect(await stored(IMEI_BOX)).toHaveLength(7);
    d.close();
  });

  it('drops damaged packets and noise, keeps the session, answers the next good packet', async () => {
    const d = await login(IMEI_BAD);
    const good = (seconds: number) =>
      device.position({
        fixTime: new Date(Date.now() - seconds * 1000),
        latitude: -8.07,
        longitude: -34.9,
        speed: 5,
        course: 10,
        ignition: true,
      });
    const before = (await stored(IMEI_BAD)).length;
    const broken = good(50);
    broken[broken.length - 1] = (broken[broken.length - 1] ?? 0) ^ 0x55;
    d.write(broken);
    d.write(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    // Counts that differ, with a CRC that matches: still malformed.
    const data = Buffer.from(good(45).subarray(8, -4));
    data[data.length - 1] = 2;
    d.write(device.packet(data));
    expect(await d.quiet()).toEqual(Buffer.alloc(0));
    expect(d.isClosed).toBe(false);
    expect(await d.send(good(40), 4)).toEqual(ONE);
    expect(await stored(IMEI_BAD)).toHaveLength(before + 1);
    d.close();
  });

  it('refuses an unknown IMEI with 0x00 and stores nothing it sends', async () => {
    const d = await NativeDevice.open(port);
    expect(await d.send(device.login(IMEI_UNKNOWN), 1)).toEqual(hex('00'));
    d.write(POSITION);
    expect(await d.quiet()).toEqual(Buffer.alloc(0));
    expect(await stored(IMEI_UNKNOWN)).toEqual([]);
    d.close();
  });

  it('refuses the IMEI of a tracker bound to another protocol', async () => {
    const d = await NativeDevice.open(port);
    expect(await d.send(device.login(IMEI_WIALON), 1)).toEqual(hex('00'));
    d.write(POSITION);
    expect(await d.quiet()).toEqual(Buffer.alloc(0));
    expect(await stored(IMEI_WIALON)).toEqual([]);
    d.close();
  });

  it('blocks with a Codec 12 setdigout and confirms it from the device answer', async () => {
    const history = async () => lastCommand(await as(server(), 'admin@rastro.demo'), cmdVehicle);
    const d = await login(IMEI_CMD);
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const res = await sendCommand(operator, 'block', cmdVehicle);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'block', status: 'sent' });
    expect(await d.read(BLOCK.length)).toEqual(BLOCK);
    // A Codec 12 answer gets no answer of its own.
    d.write(ANSWER_OK);
    expect(await d.quiet()).toEqual(Buffer.alloc(0));
    await expect.poll(history).toMatchObject({
      kind: 'block',
      status: 'confirmed',
      detail: 'Confirmado pelo rastreador: DOUT1:1 DOUT2:IGNORED',
    });
    // The unblock, refused by a device whose output is turned off in its configuration.
    await sendCommand(operator, 'unblock', cmdVehicle);
    expect(await d.read(UNBLOCK.length)).toEqual(UNBLOCK);
    d.write(device.commandAnswer('DOUT1 Is disabled from CFG'));
    await expect.poll(history).toMatchObject({
      kind: 'unblock',
      status: 'failed',
      detail: 'Recusado pelo rastreador: DOUT1 Is disabled from CFG',
    });
    d.close();
  });

  it('answers UDP datagrams with their ids and the record count', async () => {
    expect(await udpExchange(port, UDP_DOC)).toEqual([UDP_DOC_ANSWER]);
    const fixTime = new Date(Date.now() - 10_000);
    const datagram = device.udpPositions(
      UDP_IMEI,
      [{ fixTime, latitude: -8.1, longitude: -34.91, speed: 12, course: 270, ignition: true }],
      { packetId: 0x1234, avlPacketId: 0x07 },
    );
    expect(await udpExchange(port, datagram)).toEqual([hex('0005 1234 01 07 01')]);
    const rows = await stored(UDP_IMEI);
    expect(rows.at(-1)).toMatchObject({
      epoch: Math.floor(fixTime.getTime() / 1000),
      latitude: -8.1,
      longitude: -34.91,
      speed: 12,
      course: 270,
      ignition: true,
    });
    // An unknown IMEI, or a damaged datagram: no answer.
    const unknown = device.udpPositions(IMEI_UNKNOWN, [
      { fixTime, latitude: -8.1, longitude: -34.91, speed: 12, course: 270, ignition: true },
    ]);
    expect(await udpExchange(port, unknown, 500)).toEqual([]);
    expect(await udpExchange(port, UDP_DOC.subarray(0, 40), 500)).toEqual([]);
  });

  it('keeps answering after random and truncated frames', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const samples = [POSITION, PANIC, CODEC8_DOC, CODEC8E_DOC, ANSWER_OK, LOGIN_DOC];
    const noisy = await login(IMEI_FUZZ);
    for (let i = 0; i < 150; i += 1) {
      const sample = samples[i % samples.length] ?? POSITION;
      const bytes =
        i % 3 === 0
          ? Buffer.from(
              Array.from({ length: 1 + Math.floor(random() * 60) }, () => (random() * 256) | 0),
            )
          : Buffer.from(sample.subarray(0, Math.floor(random() * sample.length)));
      if (i % 3 === 2) bytes[Math.floor(random() * bytes.length)] = (random() * 256) | 0;
      if (!noisy.isClosed) noisy.write(bytes);
    }
    for (let i = 0; i < 30; i += 1)
      await udpExchange(
        port,
        Buffer.from(Array.from({ length: 1 + i * 3 }, () => (random() * 256) | 0)),
        20,
      );
    noisy.close();
    // A new session of the same device is heard and answered.
    const d = await login(IMEI_FUZZ);
    const fix = {
      fixTime: new Date(Date.now() - 5_000),
      latitude: -8.09,
      longitude: -34.92,
      speed: 0,
      course: 0,
      ignition: false,
    };
    expect(await d.send(device.position(fix), 4)).toEqual(ONE);
    expect(await udpExchange(port, UDP_DOC)).toEqual([UDP_DOC_ANSWER]);
    d.close();
  });
});
