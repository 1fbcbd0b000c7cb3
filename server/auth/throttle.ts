/**
 * Sign-in throttling, per account and per address. After `slowdownAfter` failures each
 * attempt waits longer (doubling, up to 8 s) before it is answered; after `blockAfter`
 * failures (per account) or `addressBlockAfter` (per address, higher because offices share
 * one address) the key is blocked for `blockMinutes`, even for the right password.
 */
import { addFailure, clearThrottle, readThrottle } from '../db/throttle';
import type { Deps } from '../deps';
import { HttpError } from '../http/errors';

const MAX_DELAY_MS = 8_000;

export interface LoginKeys {
  account: string;
  address: string;
}

export function loginKeys(email: string, address: string): LoginKeys {
  return { account: `account:${email.toLowerCase()}`, address: `address:${address}` };
}

function blockedError(until: Date, now: number) {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now) / 60_000));
  const unit = minutes === 1 ? 'minuto' : 'minutos';
  return new HttpError(
    429,
    'TOO_MANY_REQUESTS',
    `Muitas tentativas de acesso sem sucesso. Tente novamente em ${minutes} ${unit}.`,
    { headers: { 'Retry-After': String(Math.ceil((until.getTime() - now) / 1000)) } },
  );
}

/** Throws when blocked; otherwise waits the slow-down delay that the failures call for. */
export async function beforeLogin(deps: Deps, keys: LoginKeys): Promise<void> {
  const t = deps.config.throttle;
  const windowMs = t.blockMinutes * 60_000;
  const states = await readThrottle(deps.database.db, [keys.account, keys.address], windowMs);
  const now = Date.now();
  const blocked = states.find((s) => s.blockedUntil);
  if (blocked?.blockedUntil) throw blockedError(blocked.blockedUntil, now);
  const account = states.find((s) => s.key === keys.account)?.failures ?? 0;
  const excess = account - t.slowdownAfter + 1;
  if (excess > 0 && t.slowdownMs > 0) {
    const delay = Math.min(MAX_DELAY_MS, t.slowdownMs * 2 ** (excess - 1));
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** Counts a failure on both keys; throws the block error if this failure caused a block. */
export async function loginFailed(deps: Deps, keys: LoginKeys): Promise<void> {
  const t = deps.config.throttle;
  const windowMs = t.blockMinutes * 60_000;
  const { db } = deps.database;
  const account = await addFailure(db, keys.account, t.blockAfter, windowMs);
  const address = await addFailure(db, keys.address, t.addressBlockAfter, windowMs);
  const until = account.blockedUntil ?? address.blockedUntil;
  if (until) {
    deps.log.warn('sign-in blocked after repeated failures', { keys });
    throw blockedError(until, Date.now());
  }
}

export async function loginSucceeded(deps: Deps, keys: LoginKeys): Promise<void> {
  await clearThrottle(deps.database.db, keys.account);
}
