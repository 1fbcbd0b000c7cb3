/**
 * Queclink @Track (GV300, GV55, GV350, GL300) over real TCP and UDP sockets, through the
 * native listener and the ingest pipeline. The messages are written by hand from the maker's
 * @Track documents (field by field), so that the device side (queclink-device.ts) and the
 * codec cannot agree on a mistake; the device side is checked against them too.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CodecError, type DecodeContext } from '../../server/ingest/native/codec';
import { MAX_MESSAGE, queclink } from '../../server/ingest/native/queclink';
import {
  blackBox,
  commandSerial,
  fixedReport,
  heartbeat,
  outputAnswer,
  position,
} from '../../server/ingest/native/queclink-device';
import { as, backends, demoClients, useServer } from './harness';
import {
  createNativeTracker,
  createVehicle,
  lastCommand,
  NativeDevice,
  nativePort,
  nativeStats,
  sendCommand,
  storedPositions,
  udpExchange,
} from './native-device';

const ctx: DecodeContext = { identifier: undefined, transport: 'tcp', now: new Date() };
const decode = (text: string) => queclink.decode(Buffer.from(text, 'latin1'), ctx);

/** GV300 (060100), a fixed report: 12.65 V, ignition on and moving, input 1 on, output 2 on. */
const GV300_FRI =
  '+RESP:GTFRI,060100,862170010000014,,12650,10,1,1,25.5,180,8.0,-34.881100,-8.053900,20251103120000,0724,0005,1A2B,3C4D,00,1234.5,00012:30:00,,,88,220302,,,,20251103120005,0002$';
/** GV55 (0F0106): no GPS fix, ignition off, at rest. */
const GV55_FRI_NOFIX =
  '+RESP:GTFRI,0F0106,862170010000014,,,10,1,0,0.0,0,,,,,0724,0005,1A2B,3C4D,00,1234.6,,,,95,110000,,,,20251103120500,0003$';
/** GL300 (1A0401), two positions in one report, battery 77 %. */
const GL300_FRI =
  '+RESP:GTFRI,1A0401,862170010000014,,0,0,2,1,10.0,90,12.0,-34.880000,-8.050000,20251103121000,0724,0005,1A2B,3C4D,,1,12.0,95,13.0,-34.879000,-8.050500,20251103121030,0724,0005,1A2B,3C4D,,77,20251103121035,0004$';
/** GV350M (F10413), an extended report: analog input 1 reads a fuel sensor at 45 %. */
const GV350_ERI =
  '+RESP:GTERI,F10413,862170010000014,GV350M,00000000,13800,10,1,1,40.0,270,15.0,-34.870000,-8.040000,20251103122000,0724,0005,1A2B,3C4D,,500.0,00100:00:00,F45,100,220000,,0,20251103122001,0005$';

describe('Queclink @Track codec', () => {
  it('reads the GTFRI of a GV300, a GV55, a GL300 and a GV350', () => {
    const gv300 = decode(GV300_FRI);
    expect(gv300.identifier).toBe('862170010000014');
    expect(gv300.reply?.toString('latin1')).toBe('+SACK:0002$');
    expect(gv300.fixes).toEqual([
      {
        fixTime: new Date('2025-11-03T12:00:00Z'),
        latitude: -8.0539,
        longitude: -34.8811,
        speed: 25.5,
        course: 180,
        altitude: 8,
        valid: true,
        ignition: true,
        battery: 88,
        attributes: {
          report: 'FRI',
          hdop: 1,
          power: 12.65,
          odometer: 1_234_500,
          hours: 45_000,
          motion: true,
          din1: true,
          in2: false,
          in3: false,
          out1: false,
          out2: true,
          out3: false,
        },
      },
    ]);

    const [nofix] = decode(GV55_FRI_NOFIX).fixes;
    expect(nofix).toMatchObject({
      fixTime: new Date('2025-11-03T12:05:00Z'),
      valid: false,
      ignition: false,
      battery: 95,
      attributes: { odometer: 1_234_600, motion: false },
    });
    expect(nofix?.latitude).toBeNaN();

    const gl300 = decode(GL300_FRI).fixes;
    expect(gl300.map((f) => [f.fixTime.toISOString(), f.latitude, f.longitude, f.speed])).toEqual([
      ['2025-11-03T12:10:00.000Z', -8.05, -34.88, 10],
      ['2025-11-03T12:10:30.000Z', -8.0505, -34.879, 12],
    ]);
    // The personal tracker's first field is reserved, not its power; its battery ends the report.
    expect(gl300[1]).toMatchObject({ battery: 77 });
    expect(gl300[1]?.attributes.power).toBeUndefined();

    const [gv350] = decode(GV350_ERI).fixes;
    expect(gv350).toMatchObject({
      speed: 40,
      course: 270,
      battery: 100,
      ignition: true,
      attributes: { power: 13.8, odometer: 500_000, hours: 360_000, fuelLevel: 45 },
    });
  });

  it('reads the 1-wire temperature sensors of a GTERI', () => {
    // GV300 (060502), ERI mask bit 1: one DS18B20 at 0xFFAD sixteenths of a degree.
    const [fix] = decode(
      '+RESP:GTERI,060502,862170010000014,,00000002,12800,10,1,1,0.0,0,8.0,-34.881100,-8.053900,20251103120000,0724,0005,1A2B,3C4D,00,100.0,00001:00:00,,,90,210100,0,1,28FF2776A2150308,1,FFAD,20251103120001,0006$',
    ).fixes;
    expect(fix).toMatchObject({
      ignition: true,
      battery: 90,
      attributes: { power: 12.8, odometer: 100_000, hours: 3600, temp1: -5.1875 },
    });
  });

  it('reads alarms, events, the heartbeat and the answer to a command', () => {
    const group = '1,0.0,0,8.0,-34.881100,-8.053900,20251103120000,0724,0005,1A2B,3C4D,00';
    const tail = '20251103120001,00A1$';
    const alarm = (text: string) => decode(text).fixes.at(-1)?.attributes.alarm;
    expect(alarm(`+RESP:GTSOS,060100,862170010000014,,,00,1,${group},1.0,${tail}`)).toBe('sos');
    expect(alarm(`+RESP:GTSPD,060100,862170010000014,,,00,1,${group},1.0,${tail}`)).toBe(
      'overspeed',
    );
    expect(alarm(`+RESP:GTTOW,060100,862170010000014,,,00,1,${group},1.0,${tail}`)).toBe('tow');
    expect(alarm(`+RESP:GTJDR,060100,862170010000014,,${group},${tail}`)).toBe('jamming');
    expect(alarm(`+RESP:GTJDS,060100,862170010000014,,2,${group},${tail}`)).toBe('jamming');
    expect(alarm(`+RESP:GTBPL,060100,862170010000014,,3.55,${group},${tail}`)).toBe('lowBattery');
    expect(alarm(`+RESP:GTHBM,060100,862170010000014,,,10,1,${group},1.0,${tail}`)).toBe(
      'hardBraking',
    );
    expect(alarm(`+RESP:GTHBM,060100,862170010000014,,,11,1,${group},1.0,${tail}`)).toBe(
      'hardAcceleration',
    );
    expect(alarm(`+RESP:GTHBM,060100,862170010000014,,,12,1,${group},1.0,${tail}`)).toBe(
      'hardCornering',
    );
    const [cut] = decode(`+RESP:GTMPF,060100,862170010000014,,${group},${tail}`).fixes;
    expect(cut?.attributes).toMatchObject({ alarm: 'powerCut', powerCut: true });
    const [back] = decode(`+RESP:GTMPN,060100,862170010000014,,${group},${tail}`).fixes;
    expect(back?.attributes).toMatchObject({ powerCut: false });
    expect(back?.attributes.alarm).toBeUndefined();
    const [on] = decode(
      `+RESP:GTIGN,060100,862170010000014,,120,${group},00010:00:00,99.9,${tail}`,
    ).fixes;
    expect(on).toMatchObject({ ignition: true, attributes: { hours: 36_000, odometer: 99_900 } });
    const [off] = decode(`+RESP:GTIGF,060100,862170010000014,,120,${group},,99.9,${tail}`).fixes;
    expect(off?.ignition).toBe(false);
    const [driver] = decode(
      `+RESP:GTIDA,060100,862170010000014,,,D2C4FBC5,1,1,${group},99.9,,,,,${tail}`,
    ).fixes;
    expect(driver?.driverRfid).toBe('D2C4FBC5');
    const [input] = decode(`+RESP:GTDIS,060100,862170010000014,,,11,1,${group},1.0,${tail}`).fixes;
    expect(input?.attributes.din1).toBe(true);
    // No place: a sign of life, not a report without GPS (the tracker's GPS may well be fine).
    expect(decode('+RESP:GTPNA,060100,862170010000014,,20251103120001,00A2$')).toEqual({
      identifier: '862170010000014',
      fixes: [],
      heartbeat: true,
      reply: Buffer.from('+SACK:00A2$'),
    });
    expect(
      decode(
        '+RESP:GTINF,060100,862170010000014,,16,898600810906F8048812,16,0,1,12000,,4.4,0,0,0,0,20251103120000,0,1300,2000,00,00,+0800,0,20251103120001,00A6$',
      ).fixes,
    ).toEqual([]);

    expect(decode('+ACK:GTHBD,060100,862170010000014,,20251103120001,00A3$')).toEqual({
      identifier: '862170010000014',
      fixes: [],
      heartbeat: true,
      reply: Buffer.from('+SACK:GTHBD,060100,00A3$'),
    });
    expect(decode('+ACK:GTOUT,060100,862170010000014,,0001,20251103120001,00A4$')).toEqual({
      identifier: '862170010000014',
      fixes: [],
      answer: { ok: true, text: 'GTOUT 0001' },
    });
    // A report it does not read is still acknowledged, or the device would send it forever.
    expect(
      decode(
        '+RESP:GTVER,060100,862170010000014,,GV300,0A03,0103,20251103120001,00A5$',
      ).reply?.toString(),
    ).toBe('+SACK:00A5$');
  });

  it('refuses malformed messages', () => {
    const base =
      '+RESP:GTFRI,060100,862170010000014,,,10,1,1,0.0,0,8.0,-34.881100,-8.053900,20251103120000,0724,0005,1A2B,3C4D,00,,,,,80,210100,,,,20251103120005,0002$';
    expect(decode(base).fixes).toHaveLength(1);
    const bad = [
      base.replace('862170010000014', '8621700100000'),
      base.replace('20251103120005', '20251332120005'),
      base.replace('20251103120000', '20250230120000'),
      base.replace('-8.053900', '-98.053900'),
      base.replace(',10,1,1,', ',10,3,1,'),
      base.replace(',10,1,1,', ',10,99,1,'),
      base.replace('0002$', 'XYZ$'),
      base.replace('0.0,0,8.0', 'fast,0,8.0'),
      base.replace(',,,10,', ',\x00,,10,'),
      base.replace('060100', '06010'),
      base.replace('+RESP', '+XYZ'),
      base.replace(/,[^,]*,0002\$$/, '$'),
    ];
    for (const text of bad) expect(() => decode(text), text).toThrow(CodecError);
  });

  it('frames the stream, resyncing on noise and on a message cut short', () => {
    const good = Buffer.from(GV300_FRI);
    expect(queclink.frame(Buffer.alloc(0), false)).toBeUndefined();
    expect(queclink.frame(Buffer.from('+RES'), false)).toBeUndefined();
    expect(queclink.frame(good.subarray(0, 40), false)).toBeUndefined();
    expect(queclink.frame(Buffer.concat([Buffer.from('\r\nxx'), good]), false)).toEqual({
      skip: 4,
    });
    expect(queclink.frame(Buffer.from('+XYZ:12$'), false)).toEqual({ skip: 1 });
    expect(queclink.frame(Buffer.from('nothing here'), false)).toEqual({ skip: 12 });
    const cut = Buffer.concat([good.subarray(0, 50), good]);
    expect(queclink.frame(cut, false)).toEqual({ skip: 50 });
    const framed = queclink.frame(Buffer.concat([good, good.subarray(0, 10)]), false);
    expect(framed).toEqual({ frame: good, length: good.length });
    // No `$` in the longest message there is: noise, not a message still coming.
    const endless = Buffer.concat([Buffer.from('+RESP:'), Buffer.alloc(MAX_MESSAGE, 0x41)]);
    expect(queclink.frame(endless, false)).toEqual({ skip: 1 });
  });

  it('writes AT+GTOUT with the password and a serial number', () => {
    const command = (payload: string, serial: number, password?: string) =>
      queclink
        .encodeCommand(payload, { identifier: '862170010000014', serial, password })
        ?.toString('latin1');
    expect(command('GTOUT 1', 1)).toBe('AT+GTOUT=gv300,1,,,0,0,0,0,0,0,0,,,,,,,0001$');
    expect(command('GTOUT 0', 0x1_2abc, 'abc123')).toBe(
      'AT+GTOUT=abc123,0,,,0,0,0,0,0,0,0,,,,,,,2ABC$',
    );
    expect(command('GTOUT 1', 2, 'a,b$')).toBeUndefined();
    expect(command('RELAY,1#', 2)).toBeUndefined();
    expect(commandSerial('AT+GTOUT=gv300,1,,,0,0,0,0,0,0,0,,,,,,,0001$')).toBe(1);
  });

  it('builds on the device side what the maker documents', () => {
    const at = new Date('2025-11-03T12:00:00Z');
    const p = {
      fixTime: at,
      latitude: -8.0539,
      longitude: -34.8811,
      speed: 25.5,
      course: 180,
      ignition: true,
      battery: 88,
      altitude: 8,
      power: 12.65,
      odometer: 1_234_500,
      hours: 45_000,
    };
    const built = fixedReport([p], {
      imei: '862170010000014',
      count: 2,
      sentAt: new Date('2025-11-03T12:00:05Z'),
    });
    // The same fields as the hand-written GV300 report, its inputs and outputs aside.
    expect(built).toBe(GV300_FRI.replace('220302', '220100'));
    expect(heartbeat({ imei: '862170010000014', count: 0xa3, sentAt: at })).toBe(
      '+ACK:GTHBD,060100,862170010000014,,20251103120000,00A3$',
    );
    expect(outputAnswer(1, { imei: '862170010000014', count: 4, sentAt: at })).toBe(
      '+ACK:GTOUT,060100,862170010000014,,0001,20251103120000,0004$',
    );
    for (const alarm of ['sos', 'tow', 'jamming', 'powerCut', 'hardBraking'] as const)
      expect(
        decode(position({ ...p, alarm }, { imei: '862170010000014', count: 1 })).fixes.at(-1)
          ?.attributes.alarm,
      ).toBe(alarm);
  });
});

/** Every @Track message, either way, ends with `$`. */
const END = '$';

const iso = (value: Date | string) => new Date(value).toISOString();

describe.each(await backends())('Queclink @Track listener on %s', (backend) => {
  const server = useServer(backend, () => ({
    QUECLINK_PORT: '0',
    COMMAND_CONFIRM_TIMEOUT_SECONDS: '60',
  }));
  let port = 0;
  let north = '';

  beforeAll(async () => {
    const s = server();
    port = nativePort(s, 'queclink');
    north = (await demoClients(s)).north;
  });

  async function tracker(identifier: string, protocol: 'queclink' | 'wialon_ips' = 'queclink') {
    const admin = await as(server(), 'admin@rastro.demo');
    return createNativeTracker(admin, { clientId: north, identifier, protocol });
  }

  async function vehicleWithTracker(plate: string, identifier: string) {
    const admin = await as(server(), 'admin@rastro.demo');
    const vehicle = await createVehicle(admin, north, plate);
    const made = await createNativeTracker(admin, {
      clientId: north,
      identifier,
      protocol: 'queclink',
      vehicleId: vehicle,
    });
    return { vehicle, tracker: made.id };
  }

  const last = async (vehicle: string) =>
    lastCommand(await as(server(), 'admin@rastro.demo'), vehicle);

  /** A datagram's answers, as text. */
  const udpText = async (datagram: string, ms?: number) =>
    (await udpExchange(port, datagram, ms)).map((answer) => answer.toString('latin1'));

  it('names the device by its first message and stores its reports, SACK by SACK', async () => {
    const imei = '862170010000014';
    await tracker(imei);
    const device = await NativeDevice.open(port);
    expect(
      await device.sendText('+RESP:GTPNA,060100,862170010000014,,20251103115900,0001$', END),
    ).toBe('+SACK:0001$');
    expect(await device.sendText(GV300_FRI, END)).toBe('+SACK:0002$');
    expect(await device.sendText(GV55_FRI_NOFIX, END)).toBe('+SACK:0003$');
    expect(await device.sendText(GL300_FRI, END)).toBe('+SACK:0004$');
    expect(await device.sendText(GV350_ERI, END)).toBe('+SACK:0005$');
    const rows = await storedPositions(server(), imei);
    expect(rows.map((r) => iso(r.fix_time))).toEqual([
      '2025-11-03T12:00:00.000Z',
      '2025-11-03T12:05:00.000Z',
      '2025-11-03T12:10:00.000Z',
      '2025-11-03T12:10:30.000Z',
      '2025-11-03T12:20:00.000Z',
    ]);
    const [first, nofix, , gl300, gv350] = rows;
    expect(first).toMatchObject({
      latitude: -8.0539,
      longitude: -34.8811,
      speed: 25.5,
      course: 180,
      altitude: 8,
      ignition: true,
      battery: 88,
      attributes: {
        power: 12.65,
        odometer: 1_234_500,
        hours: 45_000,
        din1: true,
        out2: true,
        hdop: 1,
      },
    });
    // No GPS: stored at the last known place, with its telemetry.
    expect(nofix).toMatchObject({
      valid: false,
      latitude: -8.0539,
      longitude: -34.8811,
      ignition: false,
      battery: 95,
    });
    expect(gl300).toMatchObject({ latitude: -8.0505, longitude: -34.879, battery: 77 });
    expect(gv350?.attributes).toMatchObject({ fuelLevel: 45, power: 13.8 });
    device.close();
  });

  it('answers the heartbeat with its own SACK', async () => {
    const imei = '862170010000022';
    await tracker(imei);
    const device = await NativeDevice.open(port);
    expect(
      await device.sendText('+ACK:GTHBD,060100,862170010000022,,20251103120000,000A$', END),
    ).toBe('+SACK:GTHBD,060100,000A$');
    expect(await storedPositions(server(), imei)).toEqual([]);
    device.close();
  });

  it('stores an alarm with its attribute', async () => {
    const imei = '862170010000030';
    await tracker(imei);
    const device = await NativeDevice.open(port);
    expect(
      await device.sendText(
        '+RESP:GTSOS,060100,862170010000030,,,00,1,1,0.0,0,8.0,-34.881100,-8.053900,20251103123000,0724,0005,1A2B,3C4D,00,1.0,20251103123001,0010$',
        END,
      ),
    ).toBe('+SACK:0010$');
    expect(
      await device.sendText(
        '+RESP:GTJDR,060100,862170010000030,,1,0.0,0,8.0,-34.881100,-8.053900,20251103123100,0724,0005,1A2B,3C4D,00,20251103123101,0011$',
        END,
      ),
    ).toBe('+SACK:0011$');
    const rows = await storedPositions(server(), imei);
    expect(rows.map((r) => r.attributes.alarm)).toEqual(['sos', 'jamming']);
    device.close();
  });

  it('stores the black box in the order of its fixes', async () => {
    const imei = '862170010000048';
    await tracker(imei);
    const device = await NativeDevice.open(port);
    // Three stored reports in one write, the newest first.
    const buffered = [
      '+BUFF:GTFRI,060100,862170010000048,,12500,10,1,1,30.0,90,8.0,-34.879000,-8.053900,20251103100200,0724,0005,1A2B,3C4D,00,10.2,,,,90,220100,,,,20251103100201,0022$',
      '+BUFF:GTFRI,060100,862170010000048,,12500,10,1,1,30.0,90,8.0,-34.880000,-8.053900,20251103100100,0724,0005,1A2B,3C4D,00,10.1,,,,90,220100,,,,20251103100101,0021$',
      '+BUFF:GTFRI,060100,862170010000048,,12500,10,1,1,30.0,90,8.0,-34.881000,-8.053900,20251103100000,0724,0005,1A2B,3C4D,00,10.0,,,,90,220100,,,,20251103100001,0020$',
    ];
    device.write(buffered.join(''));
    expect([
      await device.readText(END),
      await device.readText(END),
      await device.readText(END),
    ]).toEqual(['+SACK:0022$', '+SACK:0021$', '+SACK:0020$']);
    const rows = await storedPositions(server(), imei);
    expect(rows.map((r) => [iso(r.fix_time), r.longitude, r.attributes.odometer])).toEqual([
      ['2025-11-03T10:00:00.000Z', -34.881, 10_000],
      ['2025-11-03T10:01:00.000Z', -34.88, 10_100],
      ['2025-11-03T10:02:00.000Z', -34.879, 10_200],
    ]);
    // The device side's black box is read the same way.
    const more = blackBox(
      [11, 12].map((minute) => ({
        fixTime: new Date(Date.UTC(2025, 10, 3, 10, minute)),
        latitude: -8.0539,
        longitude: -34.878,
        speed: 30,
        course: 90,
        ignition: true,
      })),
      { imei, count: 0x30 },
    );
    device.write(more.join(''));
    expect([await device.readText(END), await device.readText(END)]).toEqual([
      '+SACK:0030$',
      '+SACK:0031$',
    ]);
    expect(await storedPositions(server(), imei)).toHaveLength(5);
    device.close();
  });

  it('drops a malformed message and goes on answering the good ones', async () => {
    const imei = '862170010000055';
    await tracker(imei);
    const device = await NativeDevice.open(port);
    const good = (count: string, minute: string) =>
      `+RESP:GTFRI,060100,862170010000055,,,10,1,1,0.0,0,8.0,-34.881100,-8.053900,202511031${minute}00,0724,0005,1A2B,3C4D,00,,,,,80,210100,,,,202511031${minute}01,${count}$`;
    expect(await device.sendText(good('0040', '100'), END)).toBe('+SACK:0040$');
    const before = nativeStats(server(), 'queclink').malformed;
    // A latitude of 98°, then noise between messages: the report is dropped and counted, and
    // acknowledged, so that a device keeping it until acknowledged (SACK) moves on.
    const silent = await device.unanswered(
      '+RESP:GTFRI,060100,862170010000055,,,10,1,1,0.0,0,8.0,-34.881100,-98.053900,20251103110100,0724,0005,1A2B,3C4D,00,,,,,80,210100,,,,20251103110101,0041$\r\n\x00\xff',
    );
    expect(silent.toString('latin1')).toBe('+SACK:0041$');
    expect(nativeStats(server(), 'queclink').malformed).toBeGreaterThan(before);
    expect(await device.sendText(good('0042', '102'), END)).toBe('+SACK:0042$');
    expect((await storedPositions(server(), imei)).map((r) => iso(r.fix_time))).toEqual([
      '2025-11-03T11:00:00.000Z',
      '2025-11-03T11:02:00.000Z',
    ]);
    device.close();
  });

  it('answers nothing to an unknown IMEI, nor to a tracker of another protocol', async () => {
    const unknown = await NativeDevice.open(port);
    expect(
      await unknown.unanswered('+ACK:GTHBD,060100,862170019999992,,20251103120000,0001$'),
    ).toEqual(Buffer.alloc(0));
    expect(
      await unknown.unanswered(
        '+RESP:GTFRI,060100,862170019999992,,,10,1,1,0.0,0,8.0,-34.881100,-8.053900,20251103120000,0724,0005,1A2B,3C4D,00,,,,,80,210100,,,,20251103120001,0002$',
      ),
    ).toEqual(Buffer.alloc(0));
    unknown.close();
    await tracker('862170010000063', 'wialon_ips');
    const other = await NativeDevice.open(port);
    expect(
      await other.unanswered(
        '+RESP:GTFRI,060100,862170010000063,,,10,1,1,0.0,0,8.0,-34.881100,-8.053900,20251103120000,0724,0005,1A2B,3C4D,00,,,,,80,210100,,,,20251103120001,0002$',
      ),
    ).toEqual(Buffer.alloc(0));
    expect(await storedPositions(server(), '862170010000063')).toEqual([]);
    other.close();
  });

  it('blocks and unblocks through AT+GTOUT, confirmed by +ACK:GTOUT', async () => {
    const imei = '862170010000071';
    const { vehicle } = await vehicleWithTracker('QCL1A11', imei);
    const device = await NativeDevice.open(port);
    expect(
      await device.sendText(
        `+RESP:GTFRI,060100,${imei},,12500,10,1,1,0.0,0,8.0,-34.881100,-8.053900,20251103120000,0724,0005,1A2B,3C4D,00,,,,,80,210100,,,,20251103120001,0050$`,
        END,
      ),
    ).toBe('+SACK:0050$');
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const res = await sendCommand(operator, 'block', vehicle);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'block', status: 'sent' });
    const command = await device.readText(END);
    expect(command).toBe('AT+GTOUT=gv300,1,,,0,0,0,0,0,0,0,,,,,,,0001$');
    expect(await last(vehicle)).toMatchObject({ status: 'sent' });
    device.write(`+ACK:GTOUT,060100,${imei},,0001,20251103120010,0051$`);
    await expect.poll(async () => (await last(vehicle))?.status).toBe('confirmed');
    expect((await last(vehicle))?.detail).toBe('Confirmado pelo rastreador: GTOUT 0001');

    await sendCommand(operator, 'unblock', vehicle);
    const unblock = await device.readText(END);
    expect(unblock).toBe('AT+GTOUT=gv300,0,,,0,0,0,0,0,0,0,,,,,,,0002$');
    const serial = commandSerial(unblock) ?? -1;
    device.write(
      outputAnswer(serial, { imei, count: 0x52, sentAt: new Date('2025-11-03T12:00:20Z') }),
    );
    await expect.poll(() => last(vehicle)).toMatchObject({ kind: 'unblock', status: 'confirmed' });
    device.close();
  });

  it("writes the tracker's own command password", async () => {
    const imei = '862170010000089';
    const { vehicle, tracker: id } = await vehicleWithTracker('QCL2B22', imei);
    await server().deps.database.db.execute(
      sql`update trackers set command_password = 'gv55x1' where id = ${id}::uuid`,
    );
    const device = await NativeDevice.open(port);
    expect(await device.sendText(heartbeat({ imei, count: 1, sentAt: new Date() }), END)).toBe(
      '+SACK:GTHBD,060100,0001$',
    );
    const admin = await as(server(), 'admin@rastro.demo');
    await sendCommand(admin, 'block', vehicle);
    expect(await device.readText(END)).toBe('AT+GTOUT=gv55x1,1,,,0,0,0,0,0,0,0,,,,,,,0001$');
    device.close();
  });

  it('takes reports over UDP, answering each datagram to its address', async () => {
    const imei = '862170010000097';
    await tracker(imei);
    expect(
      await udpText(
        '+RESP:GTFRI,060100,862170010000097,,12400,10,1,1,60.0,45,8.0,-34.871100,-8.043900,20251103130000,0724,0005,1A2B,3C4D,00,77.7,,,,99,220100,,,,20251103130001,0A01$',
      ),
    ).toEqual(['+SACK:0A01$']);
    expect(await udpText('+ACK:GTHBD,060100,862170010000097,,20251103130100,0A02$')).toEqual([
      '+SACK:GTHBD,060100,0A02$',
    ]);
    const [row] = await storedPositions(server(), imei);
    expect(row).toMatchObject({ speed: 60, course: 45, latitude: -8.0439, battery: 99 });
    expect(row?.attributes).toMatchObject({ power: 12.4, odometer: 77_700 });
    // Unknown, or malformed: no answer.
    expect(await udpText('+ACK:GTHBD,060100,862170019999992,,20251103130100,0A03$', 400)).toEqual(
      [],
    );
    expect(await udpText('garbage', 400)).toEqual([]);
  });

  it('keeps answering after random and truncated frames', async () => {
    const imei = '862170010000105';
    await tracker(imei);
    const device = await NativeDevice.open(port);
    const at = (n: number) =>
      `+RESP:GTFRI,060100,${imei},,,10,1,1,0.0,0,8.0,-34.881100,-8.053900,2025110314${String(n).padStart(2, '0')}00,0724,0005,1A2B,3C4D,00,,,,,80,210100,,,,2025110314${String(n).padStart(2, '0')}01,${(0xb00 + n).toString(16).toUpperCase().padStart(4, '0')}$`;
    expect(await device.sendText(at(0), END)).toBe('+SACK:0B00$');
    // A fixed seed: the same noise on every run.
    let seed = 0x5eed;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x80000000;
    };
    const template = Buffer.from(at(1));
    for (let i = 0; i < 200; i++) {
      const noise = Buffer.alloc(1 + Math.floor(random() * 80));
      for (let j = 0; j < noise.length; j++) noise[j] = Math.floor(random() * 256);
      // A message cut short, then noise.
      device.write(template.subarray(0, Math.floor(random() * (template.length - 1))));
      device.write(Buffer.from(noise.toString('latin1').replaceAll('$', '#'), 'latin1'));
    }
    // A cut message whose header and count survived is acknowledged (dropped, counted): the
    // device moves on. The sound one after the noise is answered in its turn, after those.
    device.write(at(2));
    let answer = '';
    for (let i = 0; i < 50 && answer !== '+SACK:0B02$'; i++) answer = await device.readText(END);
    expect(answer).toBe('+SACK:0B02$');
    device.close();
    // A fresh connection is answered too.
    const again = await NativeDevice.open(port);
    expect(await again.sendText(at(3), END)).toBe('+SACK:0B03$');
    again.close();
  });
});
