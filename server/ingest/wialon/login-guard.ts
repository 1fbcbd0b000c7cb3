/**
 * Wialon IPS login guessing, slowed. The refused logins of an identifier, known or not, and
 * the wrong global passwords are answered one at a time, each later than the one before it
 * (up to 8 s apart); one that would wait longer is not answered and its connection is closed,
 * and a connection is closed after MAX_LOGIN_FAILURES refusals. A right password is never
 * delayed, so a guesser cannot keep the device itself out.
 */
import type { Logger } from '../../platform/log';

/** Refused logins on one connection before it is closed. */
export const MAX_LOGIN_FAILURES = 3;
/** The longest wait between two answers to refused logins of one identifier. */
export const MAX_LOGIN_DELAY_MS = 8_000;
/** Refused logins older than this are forgotten. */
const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** Keys whose refused logins are remembered at most (see `evict`). */
const MAX_GUARDED = 10_000;
/** The key under which wrong global passwords (WIALON_IPS_PASSWORD) are counted, whatever the identifier. */
export const GLOBAL_PASSWORD_KEY = '*';

/**
 * Refused logins, in this process, per key: the identifier sent (known or not, so that the
 * wait tells nothing), and GLOBAL_PASSWORD_KEY for a wrong global password, which would log in
 * any tracker without its own (else a guesser would try it under a new identifier each time).
 * The n-th refusal of a key in a row is answered `slowdownMs × 2^(n−2)` (the first at once,
 * at most MAX_LOGIN_DELAY_MS) after the answer to the one before it, so that guesses on many
 * connections at once are answered one at a time. A refusal that would wait longer than
 * MAX_LOGIN_DELAY_MS is not answered at all: its connection is closed, so that nothing piles
 * up. A key is forgotten LOGIN_FAILURE_WINDOW_MS after its last refusal. A right password is
 * never delayed and clears nothing.
 */
export class LoginGuard {
  private readonly failures = new Map<string, { count: number; answerAt: number }>();

  constructor(
    private readonly slowdownMs: number,
    private readonly log?: Logger,
  ) {}

  /**
   * Counts a refused login under `keys`: how many ms to wait before answering it, or
   * undefined when it is not to be answered (close the connection).
   */
  refusal(keys: string[], now = Date.now()): number | undefined {
    const next = keys.map((key) => {
      const before = this.failures.get(key);
      const current =
        before && now - before.answerAt < LOGIN_FAILURE_WINDOW_MS ? before : undefined;
      const count = (current?.count ?? 0) + 1;
      const delay =
        count < 2 || this.slowdownMs <= 0
          ? 0
          : Math.min(MAX_LOGIN_DELAY_MS, this.slowdownMs * 2 ** (count - 2));
      return { key, count, queued: (current?.answerAt ?? now) - now, delay };
    });
    if (next.some((n) => n.queued > MAX_LOGIN_DELAY_MS)) return undefined;
    let wait = 0;
    for (const { key, count, queued, delay } of next) {
      const answerAt = now + Math.max(0, queued) + delay;
      wait = Math.max(wait, answerAt - now);
      this.failures.delete(key);
      this.failures.set(key, { count, answerAt });
      if (count === 5) this.log?.warn('wialon: repeated refused logins', { key, count });
    }
    if (this.failures.size > MAX_GUARDED) this.evict(now);
    return wait;
  }

  /**
   * Makes room: the oldest key that is forgotten already or was refused only once or twice,
   * so that a flood of new identifiers cannot push out one being guessed (else the oldest).
   */
  private evict(now: number) {
    let scanned = 0;
    let oldest: string | undefined;
    for (const [key, entry] of this.failures) {
      if (key === GLOBAL_PASSWORD_KEY) continue;
      oldest ??= key;
      if (now - entry.answerAt >= LOGIN_FAILURE_WINDOW_MS || entry.count < MAX_LOGIN_FAILURES) {
        this.failures.delete(key);
        return;
      }
      scanned += 1;
      if (scanned >= 1000) break;
    }
    if (oldest !== undefined) this.failures.delete(oldest);
  }
}
