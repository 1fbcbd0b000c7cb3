/**
 * Who is calling, as far as the network tells: the sign-in throttle counts attempts by it, the
 * audit log records it, and the ingest notes where a device's fixes came from.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The caller's address. Behind `trustedProxies` proxies, each appends the address it saw
 * to X-Forwarded-For: the right-most hop our proxies did not add is the client. Anything to
 * its left was written by the client itself, so it is never read (rotating it would
 * otherwise dodge the per-address limit).
 */
export function clientAddress(c: Context, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    const client = hops[Math.max(0, hops.length - trustedProxies)];
    if (client) return client.slice(0, 64);
  }
  try {
    return getConnInfo(c).remote.address ?? 'desconhecido';
  } catch {
    return 'desconhecido';
  }
}
