/**
 * Concox GT06 over real TCP sockets, through the native listener and the ingest pipeline. The
 * packets are written by hand from the maker's document (login example of its appendix, and
 * positions, heartbeats and alarms laid out field by field), so that the codec and the device
 * helpers (server/ingest/native/gt06-device.ts) cannot agree on a mistake; the helpers drive
 * the black box, the command answer and the fuzz.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ack, gt06, packet } from '../../server/ingest/native/gt06';
import {
  gt06Answer,
  gt06BlackBox,
  gt06Heartbeat,
  gt06Login,
  gt06Position,
  gt06Rfid,
} from '../../server/ingest/native/gt06-device';
import { createTracker, DEVICE_PASSWORD } from './devices';
import { as, backends, demoClients, useServer } from './harness';
import {
  createNativeTracker,
  createVehicle,
  hex,
  lastCommand,
  NativeDevice,
  nativePort,
  nativeStats,
  sendCommand,
  storedPositions,
} from './native-device';

/** Every answer of the GT06 to a device (login, heartbeat, alarm) is a 10-byte packet. */
const ANSWER = 10;

// The login example of the maker's appendix: IMEI 123456789012345, serial 1, and its answer.
const DOC_IMEI = '123456789012345';
const DOC_LOGIN = hex('78 78 0D 01 01 23 45 67 89 01 23 45 00 01 8C DD 0D 0A');
const DOC_LOGIN_ACK = hex('78 78 05 01 00 01 D9 DC 0D 0A');
/** The example's IMEI fails its check digit (Rastro refuses it): 123456789012347 passes. */
const IMEI = '123456789012347';
const LOGIN = hex('78 78 0D 01 01 23 45 67 89 01 23 47 00 01 39 65 0D 0A');

/**
 * Location 0x22, field by field: 2026-11-28 12:30:15 UTC, 10 satellites (C = 12 bytes of GPS),
 * 8°03.234'S 34°52.866'W (483.234' × 30000 = 0xDD34FC, 2092.866' × 30000 = 0x3BE09BC),
 * 60 km/h, course 270 fixed, west, south (0x190E), cell 724/04/0x1B59/0x3A98, ACC on, upload
 * mode 0, real time; serial 3.
 */
const POSITION = hex(
  `78 78 22 22 1A 0B 1C 0C 1E 0F CA 00 DD 34 FC 03 BE 09 BC 3C 19 0E
   02 D4 04 1B 59 00 3A 98 01 00 00 00 03 DC 9A 0D 0A`,
);
/**
 * Heartbeat 0x13: terminal information C6 (relay cut, GPS tracking, charging, ACC on),
 * voltage level 4, signal 4, no alarm, English; serial 4. Its answer echoes protocol and serial.
 */
const HEARTBEAT = hex('78 78 0A 13 C6 04 04 00 02 00 04 53 89 0D 0A');
const HEARTBEAT_ACK = hex('78 78 05 13 00 04 BE 5C 0D 0A');
/**
 * Alarm 0x26, SOS: 12:31:00, the same place standing still (flags 0x1800), cell block of 9
 * bytes, terminal information 46 (GPS tracking, charging, ACC on), level 6, signal 4, alarm
 * 01 (SOS), English; serial 5.
 */
const SOS = hex(
  `78 78 25 26 1A 0B 1C 0C 1F 00 CA 00 DD 34 FC 03 BE 09 BC 00 18 00
   09 02 D4 04 1B 59 00 3A 98 46 06 04 01 02 00 05 54 22 0D 0A`,
);
const SOS_ACK = hex('78 78 05 26 00 05 10 C6 0D 0A');
/** The commands the link writes: 0x80, command length 12, server flag 0, the text, serial. */
const RELAY_ON = hex(
  '78 78 12 80 0C 00 00 00 00 52 45 4C 41 59 2C 31 23 00 01 2B 4D 0D 0A', // RELAY,1#
);
const RELAY_OFF = hex(
  '78 78 12 80 0C 00 00 00 00 52 45 4C 41 59 2C 30 23 00 02 05 6D 0D 0A', // RELAY,0#
);

describe('GT06 codec', () => {
  const ctx = { identifier: undefined, transport: 'tcp' as const, now: new Date() };

  it('frames a stream, skipping noise and waiting for the rest', () => {
    const stream = Buffer.concat([hex('00 FF 78'), DOC_LOGIN, HEARTBEAT.subarray(0, 7)]);
    expect(gt06.frame(stream, false)).toEqual({ skip: 2 });
    const rest = stream.subarray(2);
    // 78 78 78 0D: the first 78 is a stray byte, and its "length" 0x78 would be waited for;
    // the whole packet with a right CRC one byte on says it is noise.
    expect(gt06.frame(rest, false)).toEqual({ skip: 1 });
    const login = rest.subarray(1);
    const framed = gt06.frame(login, false);
    expect(framed && 'frame' in framed ? framed.frame : undefined).toEqual(DOC_LOGIN);
    expect(gt06.frame(login.subarray(DOC_LOGIN.length), false)).toBeUndefined();
    // A packet whose end is not 0D 0A: its start is dropped, one byte at a time.
    expect(gt06.frame(Buffer.concat([POSITION.subarray(0, -1), hex('00')]), false)).toEqual({
      skip: 1,
    });
    // A length beyond what the listener would hold is no packet.
    expect(gt06.frame(hex('79 79 FF FF 13'), false)).toEqual({ skip: 1 });
    expect(gt06.frame(hex('78'), false)).toBeUndefined();
    expect(gt06.frame(Buffer.alloc(0), false)).toBeUndefined();
  });

  it('reads the login, position, heartbeat and alarm of the document', () => {
    expect(gt06.decode(DOC_LOGIN, ctx)).toMatchObject({
      identifier: DOC_IMEI,
      login: true,
      reply: DOC_LOGIN_ACK,
    });
    const [fix] = gt06.decode(POSITION, ctx).fixes;
    expect(fix?.fixTime.toISOString()).toBe('2026-11-28T12:30:15.000Z');
    expect(fix?.latitude).toBeCloseTo(-(8 + 3.234 / 60), 6);
    expect(fix?.longitude).toBeCloseTo(-(34 + 52.866 / 60), 6);
    expect(fix).toMatchObject({ speed: 60, course: 270, valid: true, ignition: true });
    expect(fix?.attributes).toMatchObject({ sat: 10, din1: true, mcc: 724, mnc: 4 });
    expect(gt06.decode(POSITION, ctx).reply).toBeUndefined();
    const beat = gt06.decode(HEARTBEAT, ctx);
    expect(beat.reply).toEqual(HEARTBEAT_ACK);
    expect(beat.heartbeat).toBe(true);
    expect(beat.fixes[0]).toMatchObject({ valid: false, ignition: true, battery: 67 });
    expect(beat.fixes[0]?.attributes).toMatchObject({ out1: true, charge: true, rssi: 4 });
    const sos = gt06.decode(SOS, ctx);
    expect(sos.reply).toEqual(SOS_ACK);
    expect(sos.fixes[0]?.attributes).toMatchObject({ alarm: 'sos', powerCut: false });
    expect(sos.fixes[0]?.battery).toBe(100);
  });

  it("agrees with every example of the maker's document, byte for byte", () => {
    // Login with type and time zone (GMT+8), serial 5, and the server's answer.
    const login = gt06.decode(
      hex('78 78 11 01 07 52 53 36 78 90 02 42 70 00 32 01 00 05 12 79 0D 0A'),
      ctx,
    );
    expect(login).toMatchObject({ identifier: '752533678900242', login: true });
    expect(login.reply).toEqual(hex('78 78 05 01 00 05 9F F8 0D 0A'));
    // Heartbeat, and the answer to one of serial 0x0100.
    expect(gt06.decode(hex('78 78 0A 13 40 04 04 00 01 00 0F DC EE 0D 0A'), ctx).heartbeat).toBe(
      true,
    );
    expect(ack(0x13, 0x0100)).toEqual(hex('78 78 05 13 01 00 E1 A0 0D 0A'));
    // Location 0x22: 2015-12-29 02:51:05, 23.111693 N 114.409298 E, a re-upload, no answer.
    const located = gt06.decode(
      hex(`78 78 22 22 0F 0C 1D 02 33 05 C9 02 7A C8 18 0C 46 58 60 00 14 00 01 CC 00 28 7D
           00 1F 71 00 00 01 00 08 20 86 0D 0A`),
      ctx,
    );
    expect(located.reply).toBeUndefined();
    expect(located.fixes[0]?.fixTime.toISOString()).toBe('2015-12-29T02:51:05.000Z');
    expect(located.fixes[0]?.latitude).toBeCloseTo(0x027ac818 / 1_800_000, 9);
    expect(located.fixes[0]?.longitude).toBeCloseTo(0x0c465860 / 1_800_000, 9);
    expect(located.fixes[0]).toMatchObject({ valid: true, speed: 0, ignition: false });
    expect(located.fixes[0]?.attributes).toMatchObject({ sat: 9, mcc: 460, archive: true });
    // Alarm 0x26 without a fix (tamper, relay cut), and the answer to one of serial 0x1C.
    const alarm = gt06.decode(
      hex(`78 78 25 26 0F 0C 1D 03 0B 26 C9 02 7A C8 18 0C 46 58 60 00 04 00 09 01 CC 00 28 7D
           00 1F 71 80 04 04 13 02 00 0C 47 2A 0D 0A`),
      ctx,
    );
    expect(alarm.fixes[0]).toMatchObject({ valid: false, battery: 67 });
    expect(alarm.fixes[0]?.attributes).toMatchObject({ out1: true, alarmCode: 0x13 });
    expect(alarm.fixes[0]?.attributes.alarm).toBeUndefined();
    expect(alarm.reply).toEqual(ack(0x26, 0x0c));
    expect(ack(0x26, 0x1c)).toEqual(hex('78 78 05 26 00 1C 9D 86 0D 0A'));
    // Multi-fence alarm 0x27 (power on, fence FF: none): answered with its own number.
    const fence = gt06.decode(
      hex(`78 78 26 27 10 04 19 09 2D 07 C5 02 7A C9 1C 0C 46 58 00 00 05 37 09 00 00 00 00 00
           00 00 00 80 02 00 0C 01 FF 00 00 4D F6 0D 0A`),
      ctx,
    );
    expect(fence.reply).toEqual(ack(0x27, 0));
    expect(fence.fixes[0]?.attributes.geofenceNumber).toBeUndefined();
    // Time calibration: the server's UTC time, at the request's serial.
    const at = { ...ctx, now: new Date(Date.UTC(2015, 11, 29, 0, 0, 21)) };
    expect(gt06.decode(hex('78 78 05 8A 00 06 88 29 0D 0A'), at).reply).toEqual(
      hex('78 78 0B 8A 0F 0C 1D 00 00 15 00 06 F0 86 0D 0A'),
    );
    // An online command: sos#, serial 1.
    expect(
      gt06.encodeCommand('sos#', { identifier: DOC_IMEI, serial: 1, password: undefined }),
    ).toEqual(hex('78 78 0E 80 08 00 00 00 00 73 6F 73 23 00 01 6D 6A 0D 0A'));
  });

  it('refuses a bad CRC, a short packet and a login that is not BCD', () => {
    const bad = Buffer.from(POSITION);
    bad[10] = 0xcb;
    expect(() => gt06.decode(bad, ctx)).toThrow('CRC');
    expect(() => gt06.decode(hex('78 78 05 13 00 04 BE 5C 0D'), ctx)).toThrow();
    expect(() => gt06.decode(packet(0x01, hex('0A 23 45 67 89 01 23 45'), 1), ctx)).toThrow('BCD');
    // A declared length beyond the content: the fields run out.
    expect(() => gt06.decode(packet(0x22, hex('1A 0B 1C'), 1), ctx)).toThrow();
  });

  it('reads command answers, short and extended, and the supply voltage', () => {
    const answer = gt06.decode(gt06Answer('Cut off the fuel supply: Success!', 9), ctx);
    expect(answer.answer).toEqual({ ok: true, text: 'Cut off the fuel supply: Success!' });
    // 0x21, UTF-16: "Command error!"
    const extended = hex(
      `79 79 00 26 21 00 00 00 00 02 00 43 00 6f 00 6d 00 6d 00 61 00 6e 00 64 00 20 00 65
       00 72 00 72 00 6f 00 72 00 21 00 23 6e 85 0d 0a`,
    );
    expect(gt06.decode(extended, ctx).answer).toEqual({ ok: false, text: 'Command error!' });
    // 0x94 type 0: external supply 0x04EB = 12.59 V.
    const power = gt06.decode(packet(0x94, hex('00 04 EB'), 7, true), ctx);
    expect(power.fixes[0]?.attributes.power).toBe(12.59);
    expect(power.reply).toBeUndefined();
  });

  it('reads the relay state, the RFID card and the 4G location', () => {
    const sync = (text: string) =>
      gt06.decode(packet(0x94, Buffer.concat([hex('04'), Buffer.from(text)]), 1, true), ctx)
        .fixes[0]?.attributes.out1;
    // DYD bit 1: fuel and power cut; bit 0: restored.
    expect(sync('ALM1=45;STA1=40;DYD=02;SOS=,,;')).toBe(true);
    expect(sync('ALM1=45;STA1=40;DYD=01;SOS=,,;')).toBe(false);
    // RFID: 02, card type, 4 bytes of id, checksum, 03.
    const card = gt06.decode(packet(0x94, hex('1B 02 08 42 77 EF EF 35 03'), 2, true), ctx);
    expect(card.fixes[0]?.driverRfid).toBe('4277EFEF');
    expect(gt06.decode(gt06Rfid('0a1b2c3d', 3), ctx).fixes[0]?.driverRfid).toBe('0A1B2C3D');
    // 0xA0: the 0x22 fields with MNC 2 bytes (MCC bit 15), a 4-byte LAC, an 8-byte cell id.
    const located = gt06.decode(
      packet(
        0xa0,
        hex(`1A 0B 1C 0C 1E 0F CA 00 DD 34 FC 03 BE 09 BC 3C 19 0E 82 D4 00 04 00 00 1B 59
             00 00 00 00 00 0E 3A 98 00 03 01 00 00 30 39`),
        3,
      ),
      ctx,
    );
    expect(located.fixes[0]).toMatchObject({ speed: 60, course: 270, ignition: false });
    expect(located.fixes[0]?.attributes).toMatchObject({
      mcc: 724,
      mnc: 4,
      lac: 0x1b59,
      cellId: 0x0e3a98,
      event: 3,
      archive: true,
      odometer: 12_345,
    });
    expect(located.reply).toBeUndefined();
  });

  it('writes the relay commands as 0x80 packets', () => {
    const c = { identifier: DOC_IMEI, password: undefined };
    expect(gt06.encodeCommand('RELAY,1#', { ...c, serial: 1 })).toEqual(RELAY_ON);
    expect(gt06.encodeCommand('RELAY,0#', { ...c, serial: 2 })).toEqual(RELAY_OFF);
    expect(gt06.encodeCommand('\u0000', { ...c, serial: 3 })).toBeUndefined();
  });
});

describe.each(await backends())('GT06 listener on %s', (backend) => {
  const server = useServer(backend, () => ({
    GT06_PORT: '0',
    COMMAND_CONFIRM_TIMEOUT_SECONDS: '60',
  }));
  let port = 0;
  let clientId = '';

  beforeAll(async () => {
    const s = server();
    port = nativePort(s, 'gt06');
    clientId = (await demoClients(s)).north;
  });

  const admin = () => as(server(), 'admin@rastro.demo');

  async function tracker(identifier: string, vehicleId?: string) {
    await createNativeTracker(await admin(), { clientId, identifier, protocol: 'gt06', vehicleId });
  }

  const positions = (identifier: string) => storedPositions(server(), identifier);

  async function loggedIn(imei: string) {
    const device = await NativeDevice.open(port);
    const ack = await device.send(gt06Login(imei, 1), ANSWER);
    expect(ack).toEqual(hex('78 78 05 01 00 01 D9 DC 0D 0A'));
    return device;
  }

  it('answers the login, stores a position and answers heartbeat and alarm', async () => {
    await tracker(IMEI);
    const device = await NativeDevice.open(port);
    expect(await device.send(LOGIN, ANSWER)).toEqual(DOC_LOGIN_ACK);
    // A position is not answered: the document asks no echo of it.
    device.write(POSITION);
    expect((await device.quiet()).length).toBe(0);
    await expect.poll(async () => (await positions(IMEI)).length).toBe(1);
    const [row] = await positions(IMEI);
    expect(new Date(row?.fix_time ?? 0).toISOString()).toBe('2026-11-28T12:30:15.000Z');
    expect(row?.latitude).toBeCloseTo(-8.0539, 6);
    expect(row?.longitude).toBeCloseTo(-34.8811, 6);
    expect(row).toMatchObject({ speed: 60, course: 270, ignition: true });
    expect(row?.attributes).toMatchObject({ sat: 10, din1: true, lac: 0x1b59, cellId: 0x3a98 });

    expect(await device.send(HEARTBEAT, ANSWER)).toEqual(HEARTBEAT_ACK);
    // Its status is stored as a report without GPS, at the last known place.
    await expect.poll(async () => (await positions(IMEI)).length).toBe(2);
    const beat = (await positions(IMEI)).find((r) => r.valid === false);
    expect(beat).toMatchObject({ battery: 67, ignition: true });
    expect(beat?.latitude).toBeCloseTo(-8.0539, 6);
    expect(beat?.attributes).toMatchObject({ out1: true, charge: true, rssi: 4 });

    expect(await device.send(SOS, ANSWER)).toEqual(SOS_ACK);
    const sos = (await positions(IMEI)).find((r) => r.attributes.alarm);
    expect(sos?.attributes).toMatchObject({ alarm: 'sos', alarmCode: 1 });
    expect(new Date(sos?.fix_time ?? 0).toISOString()).toBe('2026-11-28T12:31:00.000Z');
    device.close();
  });

  it('stores a black box in fix-time order, re-uploads marked', async () => {
    const imei = '865205030000011';
    await tracker(imei);
    const device = await loggedIn(imei);
    const base = Date.now() - 3_600_000;
    const at = (minutes: number) => ({
      fixTime: new Date(base + minutes * 60_000),
      latitude: -8.05 - minutes / 1000,
      longitude: -34.9,
      speed: 40 + minutes,
      course: 180,
      ignition: true,
    });
    // Sent newest first, in one write, as some firmwares empty their memory.
    device.write(gt06BlackBox([at(3), at(1), at(2)], 10));
    expect((await device.quiet()).length).toBe(0);
    await expect.poll(async () => (await positions(imei)).length).toBe(3);
    const rows = await positions(imei);
    expect(rows.map((r) => r.speed)).toEqual([41, 42, 43]);
    expect(rows.every((r) => r.attributes.archive === true)).toBe(true);
    expect(rows[0]?.latitude).toBeCloseTo(-8.051, 5);
    // A live one after it carries no archive mark.
    device.write(gt06Position(at(4), 13));
    await expect.poll(async () => (await positions(imei)).length).toBe(4);
    expect((await positions(imei))[3]?.attributes.archive).toBeUndefined();
    device.close();
  });

  it('drops a malformed packet and goes on answering the good ones', async () => {
    const imei = '865205030000029';
    await tracker(imei);
    const device = await loggedIn(imei);
    const broken = Buffer.from(HEARTBEAT);
    broken[5] = 0x07; // was 04: the CRC no longer matches
    device.write(Buffer.concat([hex('00 11 22 33'), broken]));
    expect((await device.quiet()).length).toBe(0);
    // A packet whose fields run past its length, with a right CRC: malformed too.
    device.write(packet(0x16, hex('1A 0B 1C 0C 1F 00 CA'), 6));
    expect((await device.quiet()).length).toBe(0);
    expect(await device.send(HEARTBEAT, ANSWER)).toEqual(HEARTBEAT_ACK);
    expect(nativeStats(server(), 'gt06').malformed).toBeGreaterThan(0);
    device.close();
  });

  it('answers no login of an unknown IMEI nor of a tracker of another protocol', async () => {
    const unknown = await NativeDevice.open(port);
    unknown.write(gt06Login('865205030000037', 1));
    expect((await unknown.quiet(600)).length).toBe(0);
    // Nothing it sends after is stored or answered.
    unknown.write(HEARTBEAT);
    expect((await unknown.quiet()).length).toBe(0);
    unknown.close();

    const caller = await admin();
    await createTracker(caller, {
      clientId,
      identifier: '865205030000045',
      protocol: 'wialon_ips',
      devicePassword: DEVICE_PASSWORD,
    });
    const other = await NativeDevice.open(port);
    other.write(gt06Login('865205030000045', 1));
    expect((await other.quiet(600)).length).toBe(0);
    other.write(POSITION);
    expect((await other.quiet()).length).toBe(0);
    expect(await positions('865205030000045')).toEqual([]);
    other.close();
  });

  it('blocks and unblocks through the relay command, confirmed by the answer', async () => {
    const imei = '865205030000052';
    const vehicle = await createVehicle(await admin(), clientId, 'GTS0A06');
    await tracker(imei, vehicle);
    const device = await loggedIn(imei);
    device.write(gt06Position({ ...baseFix(), fixTime: new Date(Date.now() - 5000) }, 2));
    await expect.poll(async () => (await positions(imei)).length).toBe(1);
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const last = () => lastCommand(operator, vehicle);

    const block = await sendCommand(operator, 'block', vehicle);
    expect(block.body).toMatchObject({ kind: 'block', status: 'sent' });
    expect(await device.read(RELAY_ON.length)).toEqual(RELAY_ON);
    device.write(gt06Answer('Cut off the fuel supply: Success!', 3));
    await expect.poll(async () => (await last())?.status).toBe('confirmed');
    expect((await last())?.detail).toBe(
      'Confirmado pelo rastreador: Cut off the fuel supply: Success!',
    );

    const unblock = await sendCommand(operator, 'unblock', vehicle);
    expect(unblock.body).toMatchObject({ kind: 'unblock', status: 'sent' });
    expect(await device.read(RELAY_OFF.length)).toEqual(RELAY_OFF);
    // A device that could not do it says so: the command fails with its words.
    device.write(gt06Answer('Restore fuel supply: Fail!', 4));
    await expect.poll(async () => (await last())?.status).toBe('failed');
    expect((await last())?.detail).toBe('Recusado pelo rastreador: Restore fuel supply: Fail!');
    device.close();
  });

  it('keeps answering after random and truncated bytes', async () => {
    const imei = '865205030000060';
    await tracker(imei);
    let seed = 0x6706;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed;
    };
    const good = [DOC_LOGIN, POSITION, HEARTBEAT, SOS, gt06Heartbeat(7)];
    for (let round = 0; round < 4; round++) {
      const device = await loggedIn(imei);
      for (let i = 0; i < 40; i++) {
        const pick = good[random() % good.length] ?? HEARTBEAT;
        const kind = random() % 3;
        if (kind === 0) device.write(pick.subarray(0, random() % pick.length));
        else if (kind === 1) {
          const noisy = Buffer.from(pick);
          noisy[random() % noisy.length] = random() & 0xff;
          device.write(noisy);
        } else device.write(Buffer.from(Array.from({ length: random() % 64 }, () => random())));
      }
      device.close();
    }
    // A fresh connection is heard and answered as before.
    const after = await loggedIn(imei);
    expect(await after.send(gt06Heartbeat(8), ANSWER)).toEqual(packet(0x13, Buffer.alloc(0), 8));
    after.close();
    expect(nativeStats(server(), 'gt06').malformed).toBeGreaterThan(0);
  });
});

function baseFix() {
  return { latitude: -8.06, longitude: -34.88, speed: 0, course: 0, ignition: false };
}
