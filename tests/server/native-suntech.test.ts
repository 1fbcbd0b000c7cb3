/**
 * Suntech (ST300 family and the universal format) over real TCP and UDP sockets, through the
 * native listener and the ingest pipeline: every line names the device; over TCP nothing is
 * answered, over UDP every report but the keep-alive is acknowledged with `ST300ACK;<id>`; a
 * block goes out as `ST300CMD;<id>;02;Enable1` and the device's `Res` line confirms it.
 *
 * The lines and bytes written here by hand come from the ST300 manual's layouts and examples
 * (and public samples of real devices), not from suntech-device.ts, so that the encoder and
 * the decoder cannot agree on a mistake.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CodecError, type DecodeContext } from '../../server/ingest/native/codec';
import { suntech } from '../../server/ingest/native/suntech';
import {
  suntechAlive,
  suntechAnswer,
  suntechBatch,
  suntechPosition,
} from '../../server/ingest/native/suntech-device';
import { as, backends, demoClients, useServer } from './harness';
import {
  createNativeTracker,
  createVehicle,
  hex,
  lastCommand,
  NativeDevice,
  nativePort,
  nativeStats,
  type StoredPosition,
  sendCommand,
  storedPositions,
  udpExchange,
} from './native-device';

const tcp: DecodeContext = { identifier: undefined, transport: 'tcp', now: new Date() };
const udp: DecodeContext = { identifier: undefined, transport: 'udp', now: new Date() };
const line = (text: string) => Buffer.from(text, 'latin1');

describe('Suntech codec', () => {
  it('frames on CR, tolerates CRLF, waits for a partial line and skips noise', () => {
    const two = line('ST300ALV;205000001\r\nST300ALV;205000002\r');
    const first = suntech.frame(two, false);
    expect(first).toEqual({ frame: line('ST300ALV;205000001'), length: 19 });
    // The LF of the CRLF stays at the head of the next line, which decode trims.
    const second = suntech.frame(two.subarray(19), false);
    expect(second).toEqual({ frame: line('\nST300ALV;205000002'), length: 20 });
    expect(suntech.decode(line('\nST300ALV;205000002'), tcp)).toMatchObject({
      identifier: '205000002',
      heartbeat: true,
    });
    expect(suntech.frame(line('ST300STT;2050'), false)).toBeUndefined();
    expect(suntech.frame(Buffer.alloc(0), false)).toBeUndefined();
    // Binary noise before a header is dropped up to the next letter.
    expect(suntech.frame(hex('00 01 ff 53 54'), false)).toEqual({ skip: 3 });
    // A "line" longer than any report, without a CR: dropped.
    expect(suntech.frame(Buffer.alloc(5000, 0x41), false)).toEqual({ skip: 5000 });
  });

  it('reads an ST300 status report field by field (the manual layout, HBM on)', () => {
    const decoded = suntech.decode(
      line(
        'ST300STT;007238270;40;313;20190220;12:05:04;c99e48;+04.644623;-074.076922;010.390;202.77;20;1;997100;14.10;100100;2;8384;003634;4.1;1',
      ),
      tcp,
    );
    expect(decoded.identifier).toBe('007238270');
    expect(decoded.reply).toBeUndefined();
    expect(decoded.fixes).toHaveLength(1);
    const [fix] = decoded.fixes;
    expect(fix).toMatchObject({
      fixTime: new Date('2019-02-20T12:05:04Z'),
      latitude: 4.644623,
      longitude: -74.076922,
      speed: 10.39,
      course: 202.77,
      valid: true,
      ignition: true,
    });
    expect(fix?.attributes).toMatchObject({
      sat: 20,
      odometer: 997100,
      power: 14.1,
      din1: false,
      in2: false,
      in3: true,
      out1: false,
      out2: false,
      mode: 2,
      index: 8384,
      hours: 3634 * 60,
      batteryVoltage: 4.1,
    });
    expect(fix?.attributes.archive).toBeUndefined();
  });

  it('reads emergencies, alerts, stored reports, a driver and no GPS fix', () => {
    const [panic] = suntech.decode(
      line(
        'ST300EMG;205000001;40;313;20240105;10:20:30;c99e48;-08.053900;-034.881100;000.000;000.00;8;1;1000;12.50;100000;1;000120;4.1;1',
      ),
      tcp,
    ).fixes;
    expect(panic?.attributes).toMatchObject({ alarm: 'sos', emergency: 1 });
    const [cut] = suntech.decode(
      line(
        'ST300EMG;205000001;40;313;20240105;10:20:30;c99e48;-08.053900;-034.881100;000.000;000.00;8;1;1000;0.00;000000;3',
      ),
      tcp,
    ).fixes;
    expect(cut?.attributes).toMatchObject({ alarm: 'powerCut', powerCut: true, power: 0 });
    const alert = (id: number) =>
      suntech.decode(
        line(
          `ST300ALT;205000001;40;313;20240105;10:20:30;c99e48;-08.053900;-034.881100;000.000;000.00;0;0;1000;12.50;000000;${id};000120;4.1;0`,
        ),
        tcp,
      ).fixes[0];
    expect(alert(47)?.attributes).toMatchObject({ alarm: 'hardBraking', alert: 47, archive: true });
    expect(alert(50)?.attributes.alarm).toBe('jamming');
    expect(alert(1)?.attributes.alarm).toBe('overspeed');
    expect(alert(41)?.attributes).toMatchObject({ alarm: 'powerCut', powerCut: true });
    expect(alert(40)?.attributes).toMatchObject({ powerCut: false });
    expect(alert(40)?.attributes.alarm).toBeUndefined();
    // FIX 0: still a report, with its telemetry.
    expect(alert(47)?.valid).toBe(false);
    // An ST300K status with its iButton read (DID, DID_REG 1).
    const [driven] = suntech.decode(
      line(
        'ST300STT;100850000;12;010;20081017;07:41:56;2F100;+37.478519;+126.886819;032.012;000.00;9;1;500;15.30;001100;1;2000;2000;4.5;1;1750;3.10;302799;0.00;215.86;012497F1160000;1',
      ),
      tcp,
    ).fixes;
    expect(driven?.driverRfid).toBe('012497F1160000');
    const [event] = suntech.decode(
      line(
        'ST300EVT;205123456;13;430;20141222;02:10:23;01454;+37.478519;+126.886819;000.000;000.00;4;1;8;12.18;11110000;1;000050;0.0;1;10;3',
      ),
      tcp,
    ).fixes;
    expect(event?.attributes).toMatchObject({ event: 1, din1: true, in4: false, hours: 3000 });
  });

  it('reads the universal format by its mask', () => {
    const [fix] = suntech.decode(
      line(
        'STT;0560001616;BFFFFF;56;1.0.15;1;20200219;20:52:25;00008D6C;334;20;0925;24;+20.741764;-103.430364;12.50;90.00;19;1;00000011;00000001;2;1;1765;00008003;0.0;12.14;136598',
      ),
      tcp,
    ).fixes;
    expect(fix).toMatchObject({
      fixTime: new Date('2020-02-19T20:52:25Z'),
      latitude: 20.741764,
      longitude: -103.430364,
      speed: 12.5,
      course: 90,
      ignition: true,
      valid: true,
    });
    expect(fix?.attributes).toMatchObject({
      sat: 19,
      din1: true,
      out1: true,
      index: 1765,
      batteryVoltage: 0,
      power: 12.14,
      assign16: '136598',
    });
    const alert = suntech.decode(
      line(
        'ALT;0520000295;3FFFFF;52;1.0.2;0;20190703;01:03:24;00004697;732;101;0002;59;+4.682583;-74.128142;0.00;0.00;6;1;00000000;00000000;50;0;',
      ),
      udp,
    );
    expect(alert.fixes[0]?.attributes).toMatchObject({ alarm: 'jamming', archive: true });
    // Universal over UDP: ACK without a model prefix.
    expect(alert.reply).toEqual(line('ACK;0520000295'));
  });

  it('answers over UDP only, and never a keep-alive', () => {
    const stt =
      'ST300STT;205000001;40;313;20240105;10:20:30;c99e48;-08.053900;-034.881100;000.000;000.00;8;1;1000;12.50;100000;2;0001';
    expect(suntech.decode(line(stt), tcp).reply).toBeUndefined();
    // "ST300ACK;205000001"
    expect(suntech.decode(line(stt), udp).reply).toEqual(
      hex('53 54 33 30 30 41 43 4b 3b 32 30 35 30 30 30 30 30 31'),
    );
    expect(suntech.decode(line('ST300ALV;205000001'), udp)).toEqual({
      identifier: '205000001',
      fixes: [],
      heartbeat: true,
    });
  });

  it('writes block and unblock as ST300CMD and reads the answers', () => {
    // "ST300CMD;205000001;02;Enable1\r"
    expect(
      suntech.encodeCommand('Enable1', { identifier: '205000001', serial: 1, password: undefined }),
    ).toEqual(
      hex(
        '53 54 33 30 30 43 4d 44 3b 32 30 35 30 30 30 30 30 31 3b 30 32 3b 45 6e 61 62 6c 65 31 0d',
      ),
    );
    expect(
      suntech
        .encodeCommand('Disable1', { identifier: '205000001', serial: 2, password: undefined })
        ?.toString(),
    ).toBe('ST300CMD;205000001;02;Disable1\r');
    expect(
      suntech.encodeCommand('RELAY,1#', {
        identifier: '205000001',
        serial: 3,
        password: undefined,
      }),
    ).toBeUndefined();
    expect(suntech.decode(line('ST300CMD;Res;205000001;313;Enable1'), tcp)).toEqual({
      identifier: '205000001',
      fixes: [],
      answer: { ok: true, text: 'Enable1' },
    });
    // The Preset report after power-on and the answers to settings confirm no command.
    const preset = suntech.decode(
      line('ST300CMD;Res;205000001;010;Preset;NTW;0;internet;;;111.111.111.111;8600;;;;1234;'),
      tcp,
    );
    expect(preset).toEqual({ identifier: '205000001', fixes: [], heartbeat: true });
    expect(suntech.decode(line('ST300ADP;Res;205000001;022;U;T;2;9000;0;0;0;0;0;0'), tcp)).toEqual({
      identifier: '205000001',
      fixes: [],
      heartbeat: true,
    });
    expect(suntech.decode(line('ST300CMD;Res;205000001;010;AckEmerg'), tcp).answer).toBeUndefined();
    expect(suntech.decode(line('ST300CMD;Res;205000001;313;Enable1NoUse'), tcp).answer).toEqual({
      ok: false,
      text: 'Enable1NoUse',
    });
  });

  it('refuses malformed lines with a CodecError', () => {
    const bad = [
      'XYZ;1;2',
      'ST300STT;20500000A;40;313;20240105;10:20:30;c99e48;-08.053900;-034.881100;000.000;000.00;8;1;1000;12.50;100000;2;0001',
      'ST300STT;205000001;40;313;20241305;10:20:30;c99e48;-08.053900;-034.881100;000.000;000.00;8;1;1000;12.50;100000;2;0001',
      'ST300STT;205000001;40;313;20240105;10:20:30;c99e48;-98.053900;-034.881100;000.000;000.00;8;1;1000;12.50;100000;2;0001',
      'ST300STT;205000001;40;313;20240105;10:20:30;c99e48;-08.053900',
      'ST300STT;205000001;40;313;20240105;10:20:30;c99e48;-08.053900;-034.881100;fast;000.00;8;1;1000;12.50;100000;2;0001',
      'ST300STT\x01;205000001',
    ];
    for (const text of bad) expect(() => suntech.decode(line(text), tcp), text).toThrow(CodecError);
  });

  it('builds device lines the decoder reads back', () => {
    const at = new Date('2024-01-05T10:20:30Z');
    const text = suntechPosition('205000001', {
      fixTime: at,
      latitude: -8.0539,
      longitude: -34.8811,
      speed: 42,
      course: 90,
      ignition: true,
      alarm: 'sos',
      driverRfid: '012497F1160000',
    });
    expect(text.endsWith('\r')).toBe(true);
    const [fix] = suntech.decode(line(text.slice(0, -1)), tcp).fixes;
    expect(fix).toMatchObject({ fixTime: at, latitude: -8.0539, longitude: -34.8811, speed: 42 });
    expect(fix?.attributes.alarm).toBe('sos');
    expect(fix?.driverRfid).toBe('012497F1160000');
  });
});

const ID = '205000001';
const OTHER_PROTOCOL = '205000009';
const UNKNOWN = '205999999';

/** A status line by hand (ST300 manual layout, HBM on), at `at`, MSG_TYPE 1 or 0. */
function stt(id: string, at: Date, msgType: '1' | '0' = '1', io = '100000') {
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}`;
  const time = `${p(at.getUTCHours())}:${p(at.getUTCMinutes())}:${p(at.getUTCSeconds())}`;
  return `ST300STT;${id};40;313;${date};${time};c99e48;-08.053900;-034.881100;045.500;180.00;11;1;123456;12.80;${io};2;0042;000090;4.1;${msgType}\r`;
}

describe.each(await backends())('Suntech listener on %s', (backend) => {
  const server = useServer(backend, () => ({
    SUNTECH_PORT: '0',
    COMMAND_CONFIRM_TIMEOUT_SECONDS: '60',
  }));
  let port = 0;
  let vehicleId = '';

  beforeAll(async () => {
    const s = server();
    port = nativePort(s, 'suntech');
    const { north } = await demoClients(s);
    const admin = await as(s, 'admin@rastro.demo');
    vehicleId = await createVehicle(admin, north, 'SUN3T00', 'Caminhão Suntech');
    await createNativeTracker(admin, {
      clientId: north,
      identifier: ID,
      protocol: 'suntech',
      vehicleId,
    });
    await createNativeTracker(admin, {
      clientId: north,
      identifier: OTHER_PROTOCOL,
      protocol: 'gt06',
    });
  });

  const positions = (identifier: string) => storedPositions(server(), identifier);
  const at = (row: StoredPosition | undefined) =>
    row ? new Date(row.fix_time).getTime() : Number.NaN;
  const waitFor = (identifier: string, count: number) =>
    expect.poll(async () => (await positions(identifier)).length, { timeout: 5000 }).toBe(count);

  it('stores a status report sent over TCP and answers nothing', async () => {
    const device = await NativeDevice.open(port);
    const when = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    device.write(stt(ID, when));
    await waitFor(ID, 1);
    const [row] = await positions(ID);
    expect(at(row)).toBe(when.getTime());
    expect(row).toMatchObject({
      latitude: -8.0539,
      longitude: -34.8811,
      ignition: true,
      // Null: a fix (false marks a report without one).
      valid: null,
    });
    expect(row?.speed).toBeCloseTo(45.5);
    expect(row?.course).toBeCloseTo(180);
    expect(row?.attributes).toMatchObject({
      sat: 11,
      power: 12.8,
      odometer: 123456,
      hours: 5400,
      batteryVoltage: 4.1,
      din1: false,
    });
    // The keep-alive: still nothing written back, the link stays.
    device.write(suntechAlive(ID));
    await new Promise((r) => setTimeout(r, 200));
    expect(device.unread.length).toBe(0);
    expect(nativeStats(server(), 'suntech').connections).toBe(1);
    // An alert without a GPS fix: stored as a report, its telemetry kept.
    const blind = new Date(when.getTime() + 10_000);
    device.write(stt(ID, blind).replace(';11;1;123456;', ';0;0;123456;'));
    await waitFor(ID, 2);
    const noFix = (await positions(ID)).find((r) => at(r) === blind.getTime());
    expect(noFix?.valid).toBe(false);
    expect(noFix?.attributes).toMatchObject({ sat: 0, power: 12.8 });
    expect(device.unread.length).toBe(0);
    device.close();
    await device.closed;
  });

  it('stores an emergency with its alarm, and stored reports in fix-time order', async () => {
    const device = await NativeDevice.open(port);
    const base = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    const before = (await positions(ID)).length;
    device.write(
      `ST300EMG;${ID};40;313;${stt(ID, new Date(base)).split(';')[4]};${stt(ID, new Date(base)).split(';')[5]};c99e48;-08.054000;-034.881000;000.000;000.00;9;1;123456;12.70;100000;1;000090;4.1;1\r`,
    );
    await waitFor(ID, before + 1);
    const panic = (await positions(ID)).find((r) => at(r) === base);
    expect(panic?.attributes).toMatchObject({ alarm: 'sos', emergency: 1 });
    // Three reports from the black box, in one burst (MSG_TYPE 0), newest last.
    device.write(
      suntechBatch(
        ID,
        [3, 2, 1].map((minutes) => ({
          fixTime: new Date(base - minutes * 60_000),
          latitude: -8.05 - minutes / 1000,
          longitude: -34.88,
          speed: 30,
          course: 10,
          ignition: true,
        })),
      ),
    );
    await waitFor(ID, before + 4);
    const rows = (await positions(ID)).filter((r) => r.attributes?.archive === true);
    expect(rows.map(at)).toEqual([3, 2, 1].map((m) => base - m * 60_000));
    expect(rows.map((r) => r.latitude)).toEqual([-8.053, -8.052, -8.051]);
    device.close();
  });

  it('drops a malformed line and keeps the session: the next line is stored', async () => {
    const device = await NativeDevice.open(port);
    const when = new Date(Math.floor(Date.now() / 1000) * 1000 - 30_000);
    const before = (await positions(ID)).length;
    device.write(stt(ID, when));
    await waitFor(ID, before + 1);
    device.write(`ST300STT;${ID};40;313;20241399;99:99:99;c99e48;oops\r`);
    device.write(hex('00 ff 02 10'));
    const next = new Date(when.getTime() + 5000);
    device.write(stt(ID, next));
    await waitFor(ID, before + 2);
    expect(device.socket.readyState).toBe('open');
    device.close();
  });

  it('acknowledges over UDP with ST300ACK, not a keep-alive, nor a broken line', async () => {
    const when = new Date(Math.floor(Date.now() / 1000) * 1000 - 20_000);
    const before = (await positions(ID)).length;
    const answers = await udpExchange(port, stt(ID, when));
    // "ST300ACK;205000001"
    expect(answers).toEqual([hex('53 54 33 30 30 41 43 4b 3b 32 30 35 30 30 30 30 30 31')]);
    await waitFor(ID, before + 1);
    expect(await udpExchange(port, suntechAlive(ID), 400)).toEqual([]);
    // A broken line beside a good one: the good one is stored and acknowledged.
    const later = new Date(when.getTime() + 1000);
    const both = await udpExchange(port, `ST300STT;${ID};garbage\r${stt(ID, later)}`);
    expect(both.map((b) => b.toString())).toEqual([`ST300ACK;${ID}`]);
    await waitFor(ID, before + 2);
  });

  it('answers nothing to an unknown device or one bound to another protocol', async () => {
    const when = new Date(Date.now() - 10_000);
    expect(await udpExchange(port, stt(UNKNOWN, when), 400)).toEqual([]);
    expect(await udpExchange(port, stt(OTHER_PROTOCOL, when), 400)).toEqual([]);
    expect(await positions(OTHER_PROTOCOL)).toEqual([]);
    const device = await NativeDevice.open(port);
    // Three refused logins close the connection (a scan of identifiers).
    device.write(stt(UNKNOWN, when));
    device.write(stt(OTHER_PROTOCOL, when));
    device.write(stt('205999998', when));
    await device.closed;
    expect(device.unread.length).toBe(0);
    expect(await positions(UNKNOWN)).toEqual([]);
  });

  it('blocks through the open connection and confirms from the device answer', async () => {
    const device = await NativeDevice.open(port);
    const before = (await positions(ID)).length;
    device.write(stt(ID, new Date(Math.floor(Date.now() / 1000) * 1000 - 5000)));
    // Stored: the connection speaks for the device, and commands go through it.
    await waitFor(ID, before + 1);
    const operator = await as(server(), 'operador.norte@rastro.demo');
    const res = await sendCommand(operator, 'block', vehicleId);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('sent');
    // "ST300CMD;205000001;02;Enable1\r"
    expect(await device.read(30)).toEqual(
      hex(
        '53 54 33 30 30 43 4d 44 3b 32 30 35 30 30 30 30 30 31 3b 30 32 3b 45 6e 61 62 6c 65 31 0d',
      ),
    );
    const last = () => lastCommand(operator, vehicleId);
    // The Preset report a device sends after power-on is no answer to the block.
    device.write(`ST300CMD;Res;${ID};313;Preset;NTW;0;internet;;;10.0.0.1;5011;;;;;\r`);
    device.write(suntechAlive(ID));
    await new Promise((r) => setTimeout(r, 200));
    expect((await last())?.status).toBe('sent');
    device.write(suntechAnswer(ID, 'Enable1'));
    await expect.poll(async () => (await last())?.status).toBe('confirmed');
    expect(await last()).toMatchObject({
      kind: 'block',
      detail: 'Confirmado pelo rastreador: Enable1',
    });
    const unblock = await sendCommand(operator, 'unblock', vehicleId);
    expect(unblock.body.status).toBe('sent');
    expect((await device.read(31)).toString('latin1')).toBe(`ST300CMD;${ID};02;Disable1\r`);
    device.write(`ST300CMD;Res;${ID};313;Disable1\r`);
    await expect.poll(async () => (await last())?.status).toBe('confirmed');
    expect((await last())?.kind).toBe('unblock');
    device.close();
  });

  it('keeps answering after random and truncated frames', async () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const good = stt(ID, new Date(Date.now() - 1000));
    const device = await NativeDevice.open(port);
    for (let n = 0; n < 200; n++) {
      const cut = good.slice(0, Math.floor(random() * good.length));
      const noise = Buffer.from(
        Array.from({ length: Math.floor(random() * 64) }, () => Math.floor(random() * 256)),
      );
      device.write(random() < 0.5 ? `${cut}\r` : noise);
      if (n % 50 === 0) await udpExchange(port, noise, 10);
    }
    device.close();
    const when = new Date(Math.floor(Date.now() / 1000) * 1000 - 7000);
    const before = (await positions(ID)).filter((r) => at(r) === when.getTime()).length;
    expect(before).toBe(0);
    expect((await udpExchange(port, stt(ID, when))).map((b) => b.toString())).toEqual([
      `ST300ACK;${ID}`,
    ]);
    const again = await NativeDevice.open(port);
    again.write(suntechAlive(ID));
    again.write(stt(ID, new Date(when.getTime() + 1000)));
    await expect
      .poll(async () => (await positions(ID)).some((r) => at(r) === when.getTime() + 1000))
      .toBe(true);
    again.close();
  });
});
