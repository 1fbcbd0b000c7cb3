/**
 * What an installer types into a device or a phone app to connect it to Rastro, per protocol:
 * the server, the port, the identifier and the device password, written the way each device
 * expects them. Pure: the tracker form shows it, tests pin it.
 *
 * - OsmAnd (Traccar Client and compatible apps): the server URL carries the password in its
 *   query (the apps keep it on every report); the Traccar Client app configures itself from a
 *   link `org.traccar.client://?url=…&id=…` (its QR code form: an http link would drop the
 *   query, and with it the password).
 * - Wialon IPS: the login line the device sends (`#L#2.0;imei;password;crc`, the CRC the device
 *   computes), over TCP (UDP carries no password).
 */

/** Letters and digits that read unambiguously (no 0/O, 1/l/I) and need no escaping in a URL. */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * A strong device password: `length` characters from ALPHABET (about 5.8 bits each: 16 give
 * 93 bits), drawn with the platform's cryptographic random source, without modulo bias.
 */
export function generateDevicePassword(length = 16): string {
  const out: string[] = [];
  const limit = 256 - (256 % ALPHABET.length);
  const bytes = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(bytes);
    for (const byte of bytes) {
      if (byte >= limit) continue;
      out.push(ALPHABET.charAt(byte % ALPHABET.length));
      if (out.length === length) break;
    }
  }
  return out.join('');
}

export interface DeviceEndpoint {
  host: string;
  port: number | null;
  identifier: string;
  /** The password to type (null: not known here, it is kept only as a hash). */
  password: string | null;
}

/** The server URL to give a phone app (OsmAnd protocol), with the password in its query. */
export function osmandServerUrl(e: DeviceEndpoint): string | null {
  if (e.port === null) return null;
  const base = `http://${e.host}:${e.port}/`;
  return e.password ? `${base}?password=${encodeURIComponent(e.password)}` : base;
}

/** The link the Traccar Client app reads from a QR code: its server URL and device id. */
export function traccarClientLink(e: DeviceEndpoint): string | null {
  const url = osmandServerUrl(e);
  if (!url) return null;
  const query = new URLSearchParams({ url, id: e.identifier });
  return `org.traccar.client://?${query}`;
}

/**
 * The Wialon IPS 2.0 login line the device sends, without its CRC (the device appends it);
 * `placeholder` stands for a password not known here.
 */
export function wialonLogin(e: DeviceEndpoint, placeholder: string): string {
  return `#L#2.0;${e.identifier};${e.password ?? placeholder};`;
}

/** Whether a host is written as an IPv4 address (GT06 asks which of the two it gets). */
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The text message (or console command) that points a makers' device at the server, where its
 * family has one; null where it is set in the maker's program only (Suntech).
 *
 * - GT06 (Concox and clones): `SERVER,<0 address | 1 domain>,<host>,<port>,0#`, TCP.
 * - Teltonika: `setparam` of the server (2004), its port (2005) and TCP (2006 = 0), after two
 *   spaces that stand for the empty SMS login and password.
 * - Queclink: `AT+GTSRI` with the device's password: long TCP connection (3), the buffer on
 *   (1), the server and port, a heartbeat every 5 minutes, SACK on, the ASCII format.
 */
export function nativeSms(
  protocol: string,
  host: string,
  port: number | null,
  commandPassword = 'gv300',
): string | null {
  if (port === null) return null;
  switch (protocol) {
    case 'gt06':
      return `SERVER,${IPV4.test(host) ? 0 : 1},${host},${port},0#`;
    case 'teltonika':
      return `  setparam 2004:${host};2005:${port};2006:0`;
    case 'queclink':
      return `AT+GTSRI=${commandPassword},3,,1,${host},${port},,,,5,1,0,0,,,FFFF$`;
    default:
      return null;
  }
}
