/**
 * Who may speak for a tracker. A message names a tracker by its identifier, and an identifier
 * is no secret (an IMEI is printed on the device and its box): what proves the sender is the
 * tracker's own device is the protocol it was bound to and the device's password.
 *
 * - A tracker speaks one protocol. A message for it on another listener is refused: an OsmAnd
 *   request naming a Wialon IPS tracker is somebody else's.
 * - A device proves its password: Wialon IPS at login, OsmAnd on every request (`password`, or
 *   HTTP Basic). The flespi stream is proven by its shared secret, for every device in it.
 * - The makers' protocols (GT06, Suntech, Teltonika, Queclink) carry no password: such a device
 *   is known by its IMEI, and only on the protocol its tracker is bound to by name (its form or
 *   its type). A tracker not bound to one of them is refused there unless it takes devices
 *   without a password, and then its link is unauthenticated (no commands).
 * - A tracker without a password is let in only when the operator ticked "Aceitar sem senha"
 *   on it (a device that cannot hold one), or when DEVICE_AUTH=optional. Such a link is
 *   "unauthenticated": its fixes are stored, no command ever goes out through it.
 *
 * Every refusal is answered exactly as an unknown identifier is, so that identifiers cannot
 * be enumerated nor told apart from trackers with a password; it is counted and shown on the
 * tracker's page (server/ingest/device-status.ts) for the installer.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { DeviceProtocol } from '../../src/contract';

/** What a tracker's identity check needs of it (read with it in every ingest batch). */
export interface DeviceIdentity {
  /** The protocol it is bound to (null: none yet, the first one heard binds it). */
  protocol: string | null;
  /** SHA-256 (hex) of its device password, when it has one. */
  passwordHash: string | null;
  allowUnauthenticated: boolean;
}

/** How a message proves who sent it. */
export type Credential =
  /** A password given with the message itself (OsmAnd, or none at all). */
  | { kind: 'password'; password: string | undefined }
  /** A connection that logged in before (Wialon IPS over TCP): the login checked it. */
  | { kind: 'session'; authenticated: boolean }
  /** A stream whose shared secret was checked for the whole request (flespi). */
  | { kind: 'stream' }
  /** A makers' protocol without passwords: the IMEI on the protocol the tracker is bound to. */
  | { kind: 'imei' };

/** Where a message came from: the listener's protocol, the peer's address, its proof. */
export interface DeviceSource {
  protocol: DeviceProtocol;
  address?: string | undefined;
  credential: Credential;
}

/** Why a known identifier's message is answered as an unknown one's. */
export type IdentityRefusal = 'wrong_password' | 'no_password' | 'wrong_protocol';

export type Identity =
  | { ok: true; authenticated: boolean }
  | { ok: false; reason: IdentityRefusal | 'unknown_device' };

export type DeviceAuth = 'required' | 'optional';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** The stored form of a device password: SHA-256, hex. */
export const hashDevicePassword = (password: string) => sha256(password).toString('hex');

/** Whether a password matches a tracker's stored SHA-256 (hex), in constant time. */
export function passwordMatches(stored: string, given: string): boolean {
  const expected = Buffer.from(stored, 'hex');
  const actual = sha256(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Whether `tracker` may take this message, and whether its sender proved the password. */
export function checkIdentity(
  tracker: DeviceIdentity | undefined,
  source: DeviceSource,
  auth: DeviceAuth,
): Identity {
  if (!tracker) return { ok: false, reason: 'unknown_device' };
  if (tracker.protocol !== null && tracker.protocol !== source.protocol)
    return { ok: false, reason: 'wrong_protocol' };
  const { credential } = source;
  if (credential.kind === 'stream') return { ok: true, authenticated: true };
  if (credential.kind === 'session') return { ok: true, authenticated: credential.authenticated };
  if (credential.kind === 'imei') {
    // Bound by name, not by the first message heard: nobody else binds it by speaking first.
    if (tracker.protocol === source.protocol) return { ok: true, authenticated: true };
    if (tracker.allowUnauthenticated || auth === 'optional')
      return { ok: true, authenticated: false };
    return { ok: false, reason: 'wrong_protocol' };
  }
  return checkPassword(tracker, credential.password, auth);
}

/** A password given by a device (undefined: none) against its tracker's. */
export function checkPassword(
  tracker: DeviceIdentity,
  password: string | undefined,
  auth: DeviceAuth,
): Identity {
  if (tracker.passwordHash) {
    // A device that has a password must give it, even when it may also come in without.
    if (password !== undefined && passwordMatches(tracker.passwordHash, password))
      return { ok: true, authenticated: true };
    if (password === undefined && tracker.allowUnauthenticated)
      return { ok: true, authenticated: false };
    return { ok: false, reason: 'wrong_password' };
  }
  if (tracker.allowUnauthenticated || auth === 'optional')
    return { ok: true, authenticated: false };
  return { ok: false, reason: 'no_password' };
}
