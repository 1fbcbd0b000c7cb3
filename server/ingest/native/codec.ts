/**
 * What a makers' protocol (GT06, Suntech, Teltonika, Queclink) must tell the native listener
 * (listener.ts): how its byte stream splits into messages, what each message says, what to
 * answer, and how a command is written. A codec is pure: no sockets, no database, no clock of
 * its own (the listener passes `now`), so that its tests are messages and bytes.
 *
 * The listener does the rest the same way for every family: the identity of the device (the
 * IMEI on the protocol its tracker is bound to), the answer only after the fixes are committed,
 * the bounds per connection, the downlink of commands, the installers' view.
 */
import type { DeviceProtocol } from '../../../src/contract';
import type { Fix } from '../queries/positions';

/** What the framer found at the start of a connection's unread bytes. */
export type Framed =
  /** One whole message, the first `length` bytes. */
  | { frame: Buffer; length: number }
  /** Bytes that start no message (noise, a broken packet): dropped to find the next one. */
  | { skip: number }
  /** Not enough bytes yet. */
  | undefined;

/** The device's answer to a command it was sent. */
export interface CommandAnswer {
  /** Whether the device says it did it. */
  ok: boolean;
  /** The device's own words, kept as the command's detail. */
  text: string;
}

/** One decoded message. */
export interface Decoded {
  /**
   * The identifier (IMEI) the message names, when it names one: a login (GT06, Teltonika's
   * first packet), or every message of the text protocols (Suntech, Queclink).
   */
  identifier?: string | undefined;
  /** A login: the connection speaks for `identifier` from now on, once the tracker is known. */
  login?: boolean | undefined;
  /**
   * Positions and reports without a GPS fix (`valid: false`), in the order sent. A device
   * alarm is `attributes.alarm` (ALARMS); readings use the canonical names (canonical.ts).
   */
  fixes: Fix[];
  /**
   * The bytes to answer, sent only after the fixes are committed (at once when there are
   * none); undefined when the device expects no answer to this message.
   */
  reply?: Buffer | undefined;
  /** The device answered a command. */
  answer?: CommandAnswer | undefined;
  /** A heartbeat: the device is alive and said nothing else. */
  heartbeat?: boolean | undefined;
}

export interface DecodeContext {
  /** The identifier this connection logged in with, when it did. */
  identifier: string | undefined;
  transport: 'tcp' | 'udp';
  /** The server's clock, for fixes that carry no date and for the future check. */
  now: Date;
}

/** What a command needs to be written in the device's protocol. */
export interface CommandContext {
  identifier: string;
  /** Increases with every command sent on the link (GT06 serial, Suntech/Queclink counters). */
  serial: number;
  /** The device's own command password, when its protocol needs one (Queclink). */
  password: string | undefined;
}

/** A malformed message: dropped (answered with `reply`, when the protocol has one, to a device that named itself). */
export class CodecError extends Error {
  constructor(
    message: string,
    readonly reply?: Buffer,
  ) {
    super(message);
    this.name = 'CodecError';
  }
}

export interface Codec {
  protocol: DeviceProtocol;
  /** The name in logs and metrics. */
  name: string;
  /** Splits a TCP stream (`identified`: the connection has logged in). */
  frame(buffer: Buffer, identified: boolean): Framed;
  /** One message; throws CodecError when it is malformed. */
  decode(frame: Buffer, ctx: DecodeContext): Decoded;
  /**
   * A UDP datagram, which may carry its own header (Teltonika) or several messages (the text
   * protocols): the messages, each decoded as `decode` would. Absent: no UDP for this family.
   */
  datagram?(datagram: Buffer, ctx: DecodeContext): Decoded[];
  /**
   * The bytes of a command: its stored payload (COMMAND_PAYLOADS), written for this device.
   * Undefined when the payload is not one this family writes.
   */
  encodeCommand(payload: string, ctx: CommandContext): Buffer | undefined;
  /** What to answer a login refused (Teltonika `0x00`); undefined: no answer. */
  refuse?(ctx: DecodeContext): Buffer | undefined;
}

/**
 * What a device reports at one moment, as the device side of each family writes it
 * (`*-device.ts`: the simulator, the benchmark and the tests). Each family adds its own readings.
 */
export interface DeviceReport {
  fixTime: Date;
  latitude: number;
  longitude: number;
  /** km/h. */
  speed: number;
  /** Degrees from north. */
  course: number;
  ignition: boolean;
  /** The driver's iButton or RFID card. */
  driverRfid?: string | undefined;
  /** The alarm the report stands for. */
  alarm?: Alarm | undefined;
}

/**
 * Device alarms, by their canonical name in `attributes.alarm`. The alert engine raises the
 * alert types of the first ones (server/alerts/evaluate.ts); the others map onto readings the
 * existing alerts already watch (power cut → powerCut, low battery → battery…), which the
 * codec sets as well.
 */
export const ALARMS = [
  'sos',
  'jamming',
  'tow',
  'hardBraking',
  'hardAcceleration',
  'hardCornering',
  'powerCut',
  'lowBattery',
  'overspeed',
  'vibration',
  'door',
  'geofence',
  'accident',
] as const;
export type Alarm = (typeof ALARMS)[number];

/** The stored payload of each command kind, per family (the text a person would send by SMS). */
export const COMMAND_PAYLOADS: Record<
  'gt06' | 'suntech' | 'teltonika' | 'queclink',
  Partial<Record<string, string>>
> = {
  // Concox's relay commands: RELAY,1# cuts the fuel (output on), RELAY,0# restores it.
  gt06: { block: 'RELAY,1#', unblock: 'RELAY,0#' },
  // Suntech's output commands: Enable1 / Disable1 act on output 1.
  suntech: { block: 'Enable1', unblock: 'Disable1' },
  // Teltonika Codec 12: digital output 1 on (the relay) or off; the second output untouched.
  teltonika: { block: 'setdigout 1?', unblock: 'setdigout 0?' },
  // Queclink output control, output 1 on or off (the password and serial added when sent).
  queclink: { block: 'GTOUT 1', unblock: 'GTOUT 0' },
};
