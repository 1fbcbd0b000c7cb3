/**
 * A Teltonika FMB device's side of the protocol (teltonika.ts), for the simulator, the
 * benchmark and the tests: what a real device sends (its IMEI, AVL packets in Codec 8 or 8
 * Extended over TCP, datagrams over UDP, its keep-alive ping, its answer to a command) and how
 * it reads what the server sends back.
 */
import type { Alarm, DeviceReport } from './codec';
import { CODEC_8, CODEC_8E, CODEC_12, crc16Ibm } from './teltonika';

/** What an FMB reports at one moment. */
export interface DevicePosition extends DeviceReport {
  altitude?: number;
  /** 0: no GPS fix (the coordinates are then the last ones known). */
  satellites?: number;
  /** Battery level, % (IO 113). */
  battery?: number;
  /** The iButton's key, up to 16 hex digits (IO 78). */
  driverRfid?: string;
  /** More IO elements by id, unsigned: 1, 2, 4 or 8 bytes as given. */
  io?: { id: number; size: 1 | 2 | 4 | 8; value: number | bigint }[];
}

type Io = { id: number; size: 1 | 2 | 4 | 8; value: number | bigint };

/** The IO element of each alarm an FMB raises (priority 2, panic, for an SOS). */
const ALARM_IO: Partial<Record<Alarm, (p: DevicePosition) => Io>> = {
  jamming: () => ({ id: 249, size: 1, value: 1 }),
  tow: () => ({ id: 246, size: 1, value: 1 }),
  powerCut: () => ({ id: 252, size: 1, value: 1 }),
  hardAcceleration: () => ({ id: 253, size: 1, value: 1 }),
  hardBraking: () => ({ id: 253, size: 1, value: 2 }),
  hardCornering: () => ({ id: 253, size: 1, value: 3 }),
  accident: () => ({ id: 247, size: 1, value: 1 }),
  overspeed: (p) => ({ id: 255, size: 1, value: Math.min(255, Math.round(p.speed)) }),
};

/** The IO elements of a position, and the one that made the record (its event id). */
function elementsOf(p: DevicePosition): { event: number; priority: number; io: Io[] } {
  const io: Io[] = [
    { id: 239, size: 1, value: p.ignition ? 1 : 0 },
    { id: 240, size: 1, value: p.speed > 0 ? 1 : 0 },
  ];
  if (p.battery !== undefined) io.push({ id: 113, size: 1, value: Math.round(p.battery) });
  if (p.driverRfid !== undefined) io.push({ id: 78, size: 8, value: BigInt(`0x${p.driverRfid}`) });
  let event = 0;
  let priority = 0;
  const alarm = p.alarm ? ALARM_IO[p.alarm]?.(p) : undefined;
  if (alarm) {
    io.push(alarm);
    event = alarm.id;
    priority = 1;
  } else if (p.alarm === 'sos') {
    // A panic button wired to DIN2, its record sent with panic priority.
    io.push({ id: 2, size: 1, value: 1 });
    event = 2;
    priority = 2;
  }
  io.push(...(p.io ?? []));
  return { event, priority, io };
}

function writeValue(size: 1 | 2 | 4 | 8, value: number | bigint): Buffer {
  const out = Buffer.alloc(size);
  if (size === 8) out.writeBigUInt64BE(BigInt(value));
  else out.writeUIntBE(Number(value), 0, size);
  return out;
}

/** One AVL record (timestamp … IO element) in Codec 8 or 8 Extended. */
export function record(p: DevicePosition, codec: number = CODEC_8): Buffer {
  const wide = codec === CODEC_8E;
  const { event, priority, io } = elementsOf(p);
  const id = (n: number) => writeValue(wide ? 2 : 1, n);
  const head = Buffer.alloc(24);
  head.writeBigUInt64BE(BigInt(p.fixTime.getTime()), 0);
  head.writeUInt8(priority, 8);
  head.writeInt32BE(Math.round(p.longitude * 1e7), 9);
  head.writeInt32BE(Math.round(p.latitude * 1e7), 13);
  head.writeInt16BE(Math.round(p.altitude ?? 0), 17);
  head.writeUInt16BE(Math.round(p.course) % 360, 19);
  head.writeUInt8(p.satellites ?? 9, 21);
  head.writeUInt16BE(Math.round(p.speed), 22);
  const parts: Buffer[] = [head, id(event), id(io.length)];
  for (const size of [1, 2, 4, 8] as const) {
    const group = io.filter((e) => e.size === size);
    parts.push(id(group.length));
    for (const e of group) parts.push(id(e.id), writeValue(size, e.value));
  }
  // Codec 8 Extended's group of variable-length elements: none here.
  if (wide) parts.push(id(0));
  return Buffer.concat(parts);
}

/** The AVL data array: codec id, count, records, count. */
function avlData(records: Buffer[], codec: number): Buffer {
  if (records.length > 255) throw new Error('at most 255 records in one packet');
  return Buffer.concat([
    Buffer.from([codec, records.length]),
    ...records,
    Buffer.from([records.length]),
  ]);
}

/** A TCP packet around a data part: preamble, length, data, CRC-16/IBM. */
export function packet(data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc16Ibm(data));
  return Buffer.concat([head, data, crc]);
}

/** The first thing a device sends on a connection: its IMEI. */
export function login(imei: string): Buffer {
  const head = Buffer.alloc(2);
  head.writeUInt16BE(imei.length);
  return Buffer.concat([head, Buffer.from(imei, 'latin1')]);
}

/** One position, as an AVL packet of one record. */
export function position(p: DevicePosition, codec: number = CODEC_8): Buffer {
  return packet(avlData([record(p, codec)], codec));
}

/** The records a device kept while it had no link (its black box), sent in one packet. */
export function blackBox(positions: DevicePosition[], codec: number = CODEC_8): Buffer {
  return packet(
    avlData(
      positions.map((p) => record(p, codec)),
      codec,
    ),
  );
}

/** The keep-alive ping of an FMB on an idle link. */
export function heartbeat(): Buffer {
  return Buffer.from([0xff]);
}

/** The device's answer to a Codec 12 command: a Codec 12 response (type 0x06) with its text. */
export function commandAnswer(text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const data = Buffer.alloc(8 + body.length);
  data.writeUInt8(CODEC_12, 0);
  data.writeUInt8(1, 1);
  data.writeUInt8(0x06, 2);
  data.writeUInt32BE(body.length, 3);
  body.copy(data, 7);
  data.writeUInt8(1, 7 + body.length);
  return packet(data);
}

/** A UDP datagram of positions, with its packet ids. */
export function udpPositions(
  imei: string,
  positions: DevicePosition[],
  ids: { packetId: number; avlPacketId: number } = { packetId: 0xcafe, avlPacketId: 1 },
): Buffer {
  const imeiBytes = Buffer.from(imei, 'latin1');
  const head = Buffer.alloc(8);
  const data = avlData(
    positions.map((p) => record(p, CODEC_8)),
    CODEC_8,
  );
  head.writeUInt16BE(6 + imeiBytes.length + data.length, 0);
  head.writeUInt16BE(ids.packetId, 2);
  head.writeUInt8(0x01, 4);
  head.writeUInt8(ids.avlPacketId, 5);
  head.writeUInt16BE(imeiBytes.length, 6);
  return Buffer.concat([head, imeiBytes, data]);
}

/** The number of records the server took, from its 4-byte answer (undefined: not one). */
export function acceptedCount(reply: Buffer): number | undefined {
  return reply.length === 4 ? reply.readUInt32BE(0) : undefined;
}

/**
 * The text of a Codec 12 command the server sent (type 0x05), when `bytes` is one whole and
 * sound command packet.
 */
export function readCommand(bytes: Buffer): string | undefined {
  if (bytes.length < 20 || bytes.readUInt32BE(0) !== 0) return undefined;
  const length = bytes.readUInt32BE(4);
  if (length + 12 !== bytes.length) return undefined;
  const data = bytes.subarray(8, 8 + length);
  if (bytes.readUInt32BE(8 + length) !== crc16Ibm(data)) return undefined;
  if (data[0] !== CODEC_12 || data[2] !== 0x05) return undefined;
  const size = data.readUInt32BE(3);
  if (size + 8 !== data.length) return undefined;
  return data.subarray(7, 7 + size).toString('latin1');
}

export { CODEC_8, CODEC_8E };
