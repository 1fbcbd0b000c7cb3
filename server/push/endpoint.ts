/**
 * Which Web Push endpoints the server may connect to. A subscription's endpoint comes from
 * the browser, that is from whoever holds a session: unchecked, it would make the server
 * send requests to any address, its own network included. So an endpoint must be https on
 * the default port, name a host of a known push service (PUSH_ENDPOINT_HOSTS), never be an
 * address literal, and resolve only to public addresses. The name is checked when the
 * subscription arrives and again at every send, where the connection uses the very
 * addresses that were checked (a name that resolves differently the second time cannot slip
 * a private address in between).
 *
 * PUSH_INSECURE_ENDPOINTS turns all of this off, for the tests' local http stand-ins only.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** The push services of the browsers in use: Chrome/Edge (FCM), Firefox, Safari, Windows. */
export const DEFAULT_PUSH_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

export interface EndpointPolicy {
  /** Host names, or `*.domain` for any name under the domain (not the domain itself). */
  hosts: string[];
  /** Tests only: any http(s) endpoint, any address. */
  insecure: boolean;
}

export const ENDPOINT_NOT_ALLOWED = 'Endereço de notificações não permitido';
export const ENDPOINT_NOT_HTTPS = 'O endereço de notificações deve usar https';

/** Addresses a push service never has: this machine, its networks, and reserved ranges. */
// Two lists: one BlockList holding both families matches IPv4 addresses against IPv6 rules
// such as ::ffff:0:0/96, which would block every IPv4 address.
const PRIVATE_V4 = new BlockList();
const PRIVATE_V6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  PRIVATE_V4.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE_V6.addSubnet(net, prefix, 'ipv6');

/** Whether an address is loopback, private, link-local or otherwise not on the internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 one.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped?.[1]) return PRIVATE_V4.check(mapped[1], 'ipv4');
    return PRIVATE_V6.check(address, 'ipv6');
  }
  return PRIVATE_V4.check(address, 'ipv4');
}

function hostAllowed(host: string, hosts: string[]): boolean {
  return hosts.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.startsWith('*.') ? host.endsWith(p.slice(1)) : host === p;
  });
}

/**
 * Why an endpoint may not be used, or undefined when its form is fine (the addresses it
 * resolves to are checked by `checkResolved` and at connection time).
 */
export function endpointProblem(endpoint: string, policy: EndpointPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return ENDPOINT_NOT_ALLOWED;
  }
  if (policy.insecure) return /^https?:$/.test(url.protocol) ? undefined : ENDPOINT_NOT_ALLOWED;
  if (url.protocol !== 'https:') return ENDPOINT_NOT_HTTPS;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (url.username || url.password || url.port !== '') return ENDPOINT_NOT_ALLOWED;
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return ENDPOINT_NOT_ALLOWED;
  if (!hostAllowed(host, policy.hosts)) return ENDPOINT_NOT_ALLOWED;
  return undefined;
}

type LookupAll = (host: string) => Promise<LookupAddress[]>;

const systemLookup: LookupAll = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/**
 * Resolves the endpoint's host: false when any of its addresses is private. A name that
 * does not resolve now passes (a push service's DNS may hiccup); it is checked again at send.
 */
export async function checkResolved(
  endpoint: string,
  policy: EndpointPolicy,
  lookup: LookupAll = systemLookup,
): Promise<boolean> {
  if (policy.insecure) return true;
  let addresses: LookupAddress[];
  try {
    addresses = await lookup(new URL(endpoint).hostname);
  } catch {
    return true;
  }
  return !addresses.some((a) => isPrivateAddress(a.address));
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that refuses private addresses: the connection goes only
 * to addresses this function approved, so the name cannot resolve to a safe address for a
 * check and to a private one for the connection.
 */
export function publicOnlyLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const blocked = addresses.find((a) => isPrivateAddress(a.address));
    if (blocked || addresses.length === 0) {
      const refused: NodeJS.ErrnoException = new Error(
        `push endpoint ${hostname} resolves to a private address`,
      );
      refused.code = 'EPRIVATEADDRESS';
      return callback(refused, []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0] as LookupAddress;
    return callback(null, first.address, first.family);
  });
}

/** PUSH_ENDPOINT_HOSTS: a comma-separated list, or the known push services. */
export function parsePushHosts(value: string | undefined): string[] {
  const hosts = (value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return hosts.length > 0 ? hosts : DEFAULT_PUSH_HOSTS;
}
