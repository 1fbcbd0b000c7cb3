/**
 * Access tokens are short-lived HS256 JWTs carrying the user id, customer and role. Refresh
 * and set-password tokens are opaque random strings; only their SHA-256 hash is stored.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { sign, verify } from 'hono/jwt';
import { JwtTokenExpired } from 'hono/utils/jwt/types';
import type { Role } from '../../../src/contract';
import { unauthorized } from '../../platform/http/errors';

export interface AccessClaims {
  sub: string;
  cid: string;
  role: Role;
  typ: 'access';
  iat: number;
  exp: number;
  /** The session (refresh-token family) the token belongs to: revoking it ends the token. */
  sid?: string;
}

export const TOKEN_EXPIRED = 'TOKEN_EXPIRED';

export function signAccessToken(
  user: { id: string; clientId: string; role: Role },
  secret: string,
  ttlSeconds: number,
  now = Date.now(),
  sessionId?: string,
): Promise<string> {
  const iat = Math.floor(now / 1000);
  const claims: AccessClaims = {
    sub: user.id,
    cid: user.clientId,
    role: user.role,
    typ: 'access',
    iat,
    exp: iat + ttlSeconds,
    ...(sessionId ? { sid: sessionId } : {}),
  };
  return sign({ ...claims }, secret, 'HS256');
}

export async function verifyAccessToken(token: string, secret: string): Promise<AccessClaims> {
  try {
    const payload = await verify(token, secret, 'HS256');
    if (payload.typ !== 'access' || typeof payload.sub !== 'string') throw new Error('typ');
    if (payload.sid !== undefined && typeof payload.sid !== 'string') throw new Error('sid');
    return payload as unknown as AccessClaims;
  } catch (err) {
    if (err instanceof JwtTokenExpired) throw unauthorized('Token expirado', TOKEN_EXPIRED);
    throw unauthorized('Token inválido');
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/**
 * The successor of a refresh token, derived from it with the server secret rather than
 * drawn at random: a replay within the grace (a second tab refreshing at the same moment)
 * is answered with the very successor the first use minted, without the database keeping
 * any token in clear. Without the secret nobody can compute it.
 */
export function successorToken(presented: string, secret: string): { token: string; hash: string } {
  const token = createHmac('sha256', secret)
    .update(`refresh-successor:${presented}`)
    .digest('base64url');
  return { token, hash: hashToken(token) };
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}
