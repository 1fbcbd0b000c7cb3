/**
 * The demo's makers' devices (GT06, Suntech, Teltonika, Queclink): each speaks its family's
 * protocol over its own TCP connection, as the real device would (server/ingest/native/*-device.ts
 * write the bytes), and answers the commands the server sends it, so that a block from the demo
 * is confirmed by the device like a real one.
 */
import { connect, type Socket } from 'node:net';
import type { DeviceReport } from '../ingest/native/codec';
import type { NativeProtocol } from '../ingest/native/codecs';
import { gt06Answer, gt06Login, gt06Position } from '../ingest/native/gt06-device';
import * as queclink from '../ingest/native/queclink-device';
import { suntechAnswer, suntechPosition } from '../ingest/native/suntech-device';
import * as teltonika from '../ingest/native/teltonika-device';

/** One report of a simulated device: its battery in %. */
export type NativeReport = DeviceReport & { battery: number };

/** What a family's device writes, and how it answers a command it reads. */
export interface Speaker {
  /** What the device sends first on a connection (its login), if its family has one. */
  hello(imei: string): Buffer | undefined;
  report(imei: string, report: NativeReport): Buffer;
  /** The device's answer to a command found in what the server wrote, if any. */
  answer(imei: string, received: Buffer): Buffer | undefined;
  /** Whether the server answers each position over TCP (the bench waits for it). */
  acksPositions: boolean;
  /** Several reports in one packet, where the family carries them so (a black box). */
  batch?(imei: string, reports: NativeReport[]): Buffer;
}

/** Finds a Teltonika Codec 12 command anywhere in the bytes read (acks may come before it). */
function teltonikaCommand(bytes: Buffer): string | undefined {
  for (
    let at = bytes.indexOf(Buffer.alloc(4));
    at >= 0;
    at = bytes.indexOf(Buffer.alloc(4), at + 1)
  ) {
    if (bytes.length - at < 12) return undefined;
    const length = bytes.readUInt32BE(at + 4);
    const text = teltonika.readCommand(bytes.subarray(at, at + 12 + length));
    if (text) return text;
  }
  return undefined;
}

/** Each Queclink device's count number, which the server's +SACK names back. */
const counts = new Map<string, number>();
const nextCount = (imei: string) => {
  const count = ((counts.get(imei) ?? 0) + 1) & 0xffff;
  counts.set(imei, count);
  return count;
};

function teltonikaPosition({ driverRfid, ...r }: NativeReport): teltonika.DevicePosition {
  return { ...r, satellites: 9, ...(driverRfid ? { driverRfid } : {}) };
}

/** Each GT06 device's serial number, which its packets carry. */
const serials = new Map<string, number>();
const nextSerial = (imei: string) => {
  const serial = ((serials.get(imei) ?? 0) + 1) & 0xffff;
  serials.set(imei, serial);
  return serial;
};

export const SPEAKERS: Partial<Record<NativeProtocol, Speaker>> = {
  gt06: {
    hello: (imei) => gt06Login(imei, nextSerial(imei)),
    report: (imei, r) => gt06Position(r, nextSerial(imei)),
    // A GT06 answers no position (only its login, heartbeats and alarms are acknowledged).
    acksPositions: false,
    answer: (imei, received) => {
      // The server's command is the SMS text inside a 0x80 packet.
      const relay = /RELAY,([01])#/.exec(received.toString('latin1'));
      if (!relay) return undefined;
      const text =
        relay[1] === '1' ? 'Cut off the fuel supply: Success!' : 'Restore fuel supply: Success!';
      return gt06Answer(text, nextSerial(imei));
    },
  },
  queclink: {
    // @Track has no login: every report names the device, and +SACK answers it.
    hello: () => undefined,
    acksPositions: true,
    report: (imei, r) =>
      Buffer.from(
        queclink.position({ ...r, power: 12.6 }, { imei, count: nextCount(imei) }),
        'latin1',
      ),
    answer: (imei, received) => {
      const command = /AT\+GTOUT=[^$]*\$/.exec(received.toString('latin1'))?.[0];
      const serial = command ? queclink.commandSerial(command) : undefined;
      return serial === undefined
        ? undefined
        : Buffer.from(
            queclink.outputAnswer(serial, { imei, count: nextCount(imei), sentAt: new Date() }),
            'latin1',
          );
    },
  },
  suntech: {
    // Suntech has no login: every line names the device; over TCP nothing is answered.
    hello: () => undefined,
    acksPositions: false,
    report: (id, r) =>
      Buffer.from(
        suntechPosition(id, {
          ...r,
          // An ST300's iButton code has 14 hex digits: the demo's 10-digit tags are no such.
          driverRfid: undefined,
          // Its backup battery in volts: a Li-ion cell from 3.5 V (empty) to 4.2 V (full).
          battery: 3.5 + (r.battery / 100) * 0.7,
        }),
        'latin1',
      ),
    answer: (id, received) => {
      const command = /ST300CMD;[^;]+;\d+;((?:Enable|Disable)\d)/.exec(received.toString('latin1'));
      return command?.[1] ? Buffer.from(suntechAnswer(id, command[1]), 'latin1') : undefined;
    },
  },
  teltonika: {
    hello: (imei) => teltonika.login(imei),
    report: (_imei, r) => teltonika.position(teltonikaPosition(r)),
    // An FMB sends what it kept in one packet of many records (Codec 8).
    batch: (_imei, reports) => teltonika.blackBox(reports.map(teltonikaPosition)),
    acksPositions: true,
    answer: (_imei, received) => {
      const command = teltonikaCommand(received);
      if (!command) return undefined;
      const on = command.startsWith('setdigout 1');
      return teltonika.commandAnswer(`DOUT1:${on ? 1 : 0} DOUT2:IGNORED`);
    },
  },
};

/** A makers' device's TCP connection: its login once, reconnecting on the next report. */
export class NativeLink {
  private socket: Socket | undefined;

  constructor(
    private readonly target: { host: string; port: number },
    private readonly imei: string,
    private readonly speaker: Speaker,
  ) {}

  send(report: NativeReport) {
    if (!this.socket || this.socket.destroyed) {
      const socket = connect(this.target.port, this.target.host);
      socket.on('error', () => socket.destroy());
      // Acknowledgements are read and dropped; a command is answered as the device would.
      socket.on('data', (chunk: Buffer) => {
        const answer = this.speaker.answer(this.imei, chunk);
        if (answer) socket.write(answer);
      });
      const hello = this.speaker.hello(this.imei);
      if (hello) socket.write(hello);
      this.socket = socket;
    }
    this.socket.write(this.speaker.report(this.imei, report));
  }

  close() {
    this.socket?.destroy();
  }
}
