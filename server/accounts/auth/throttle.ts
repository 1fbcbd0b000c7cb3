/**
 * Sign-in throttling. Every attempt is counted before its password is checked (atomically,
 * see server/accounts/queries/throttle.ts) on three keys:
 *
 * - the address guessing this account: `blockAfter` failures block that address for that
 *   account, even for the right password. The owner, elsewhere, is not touched by it;
 * - the account: after `slowdownAfter` failures, from anywhere, each attempt waits longer
 *   (doubling, up to 8 s) before it is checked, for everyone. `accountCeiling`, far above a
 *   person's typing, blocks the account against a guess spread over many addresses, except
 *   from addresses the account signed in from in the last KNOWN_DAYS days: strangers cannot
 *   lock the owner out (and the recovery e-mail always works);
 * - the address, across accounts: `addressBlockAfter` (higher, offices share an address).
 *
 * Blocks last `blockMinutes`. At most `maxConcurrent` attempts of one account are checked at
 * a time in this process; the others are refused at once, so a burst cannot queue up
 * password checks.
 */

import type { Deps } from '../../deps';
import { HttpError } from '../../platform/http/errors';
import { activeBlocks, attemptSucceeded, countAttempt, isKnownAddress } from '../queries/throttle';

const MAX_DELAY_MS = 8_000;
/** How long a successful sign-in keeps an address open through an account's ceiling. */
const KNOWN_DAYS = 90;

export interface LoginKeys {
  account: string;
  pair: string;
  address: string;
  /** The account (lower-case e-mail) and the address themselves. */
  known: { account: string; address: string };
}

export function loginKeys(email: string, address: string): LoginKeys {
  const account = email.toLowerCase();
  return {
    account: `account:${account}`,
    pair: `pair:${account}|${address}`,
    address: `address:${address}`,
    known: { account, address },
  };
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

const TOO_MANY_AT_ONCE = new HttpError(
  429,
  'TOO_MANY_REQUESTS',
  'Muitas tentativas de acesso ao mesmo tempo. Aguarde um momento e tente novamente.',
  { headers: { 'Retry-After': '1' } },
);

/** Attempts of each account being checked right now, in this process. */
const inFlight = new Map<string, number>();

/**
 * Runs `check` (the password check) as one counted attempt: refused at once when too many
 * of the account's attempts are in flight or a key is blocked, delayed after repeated
 * failures. `check` answers whether the password was right.
 */
export async function throttledAttempt<T>(
  deps: Deps,
  keys: LoginKeys,
  check: () => Promise<{ ok: boolean; value: T }>,
): Promise<T> {
  const t = deps.config.throttle;
  const running = inFlight.get(keys.account) ?? 0;
  if (running >= t.maxConcurrent) throw TOO_MANY_AT_ONCE;
  inFlight.set(keys.account, running + 1);
  try {
    const { db } = deps.database;
    const windowMs = t.blockMinutes * 60_000;
    const known = await isKnownAddress(
      db,
      keys.known,
      new Date(Date.now() - KNOWN_DAYS * 86_400_000),
    );
    const counted = [
      { key: keys.account, limit: t.accountCeiling, blocking: !known },
      { key: keys.pair, limit: t.blockAfter, blocking: true },
      { key: keys.address, limit: t.addressBlockAfter, blocking: true },
    ];
    const blocking = new Set(counted.filter((k) => k.blocking).map((k) => k.key));
    const states = await countAttempt(db, counted, windowMs);
    const now = Date.now();
    const blocked = (states ?? (await activeBlocks(db, [...blocking]))).find(
      (s) => blocking.has(s.key) && s.blockedUntil && s.blockedUntil.getTime() > now,
    );
    if (blocked?.blockedUntil) {
      if (states) deps.log.warn('sign-in blocked after repeated failures', { key: blocked.key });
      throw blockedError(blocked.blockedUntil, now);
    }
    if (!states) throw blockedError(new Date(now + windowMs), now);
    const previous = (states.find((s) => s.key === keys.account)?.failures ?? 1) - 1;
    const excess = previous - t.slowdownAfter + 1;
    if (excess > 0 && t.slowdownMs > 0) {
      const delay = Math.min(MAX_DELAY_MS, t.slowdownMs * 2 ** (excess - 1));
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    const outcome = await check();
    if (outcome.ok) await attemptSucceeded(db, keys, keys.known);
    return outcome.value;
  } finally {
    const left = (inFlight.get(keys.account) ?? 1) - 1;
    if (left > 0) inFlight.set(keys.account, left);
    else inFlight.delete(keys.account);
  }
}
