/**
 * Sign-in throttling, per account and per address. Every attempt is counted before its
 * password is checked (atomically, see server/db/throttle.ts). After `slowdownAfter` failed
 * attempts each one waits longer (doubling, up to 8 s) before it is checked; the attempt that
 * reaches `blockAfter` (per account) or `addressBlockAfter` (per address, higher because
 * offices share one address) blocks the key for `blockMinutes`, even for the right password.
 * At most `maxConcurrent` attempts of one account are checked at a time in this process; the
 * others are refused at once, so a burst cannot queue up password checks.
 */
import { activeBlocks, attemptSucceeded, countAttempt } from '../db/throttle';
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
    const states = await countAttempt(
      db,
      keys,
      { account: t.blockAfter, address: t.addressBlockAfter },
      windowMs,
    );
    const now = Date.now();
    const blocked = (states ?? (await activeBlocks(db, [keys.account, keys.address]))).find(
      (s) => s.blockedUntil && s.blockedUntil.getTime() > now,
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
    if (outcome.ok) await attemptSucceeded(db, keys);
    return outcome.value;
  } finally {
    const left = (inFlight.get(keys.account) ?? 1) - 1;
    if (left > 0) inFlight.set(keys.account, left);
    else inFlight.delete(keys.account);
  }
}
