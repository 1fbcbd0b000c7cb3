/**
 * One Wialon IPS device's conversation: its login, then its packets, each answered only after
 * its fixes are committed. A malformed line gets its error code and never closes the
 * connection or touches another device's data.
 *
 * Logins: a tracker may have its own password. Then only it logs the device in, and a wrong
 * one is answered exactly as an unknown identifier with that password would be (`#AL#0`, or
 * `#AL#01` when WIALON_IPS_PASSWORD is set and differs), so identifiers cannot be probed.
 * Guessing is slowed (login-guard.ts). Commands (server/ingest/downlink.ts) go out on the
 * logged-in connection.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Fix } from '../../db/positions';
import type { Logger } from '../../log';
import { checkIdentifier } from '../bounds';
import type { Downlink } from '../downlink';
import type { Pipeline } from '../pipeline';
import { GLOBAL_PASSWORD_KEY, type LoginGuard } from './login-guard';
import { checkCrc, decodeText, NA, type ParseRules, parseFix, Refused } from './parse';

export interface WialonOptions {
  pipeline: Pipeline;
  log: Logger;
  /** When set, a login with another password is answered `#AL#01`. */
  password?: string | undefined;
  /** Commands to connected devices; without it no command goes out on this listener. */
  downlink?: Downlink | undefined;
  /** Fixes further ahead of the server's clock are refused (INGEST_MAX_FUTURE_SECONDS). */
  maxFutureSeconds?: number | undefined;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether a password matches a tracker's stored SHA-256 (hex), in constant time. */
export function passwordMatches(stored: string, given: string): boolean {
  const expected = Buffer.from(stored, 'hex');
  const actual = sha256(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** One connection's state: which device logged in, and with which protocol version. */
export class WialonSession {
  identifier: string | undefined;
  trackerId: string | undefined;
  version: '1.1' | '2.0' = '1.1';
  /** Called once the device logged in (the listener attaches its downlink). */
  onLogin: ((trackerId: string) => void) | undefined;
  /** Logins refused for their password or identifier on this connection. */
  refusedLogins = 0;
  /** A refused login was not answered (LoginGuard): the connection is to be closed. */
  dropped = false;

  constructor(
    private readonly options: WialonOptions,
    private readonly guard?: LoginGuard,
  ) {}

  /** The answer to one packet (without CRLF), or undefined when none is due. */
  async handle(line: string, now = new Date()): Promise<string | undefined> {
    const match = /^#([A-Z]+)#(.*)$/s.exec(line);
    if (!match) {
      this.options.log.debug('wialon: not a packet', { line: line.slice(0, 80) });
      return undefined;
    }
    const [, type, body = ''] = match;
    switch (type) {
      case 'L': {
        const code = await this.login(body);
        return code === undefined ? undefined : `#AL#${code}`;
      }
      case 'P':
        return '#AP#';
      case 'SD':
      case 'D':
        return `#A${type}#${await this.data(type, body, now)}`;
      case 'B':
        return `#AB#${await this.blackBox(body, now)}`;
      case 'M':
        return this.identifier ? '#AM#1' : '#AM#0';
      default:
        this.options.log.debug('wialon: unknown packet', { type });
        return undefined;
    }
  }

  /** The login's answer code; undefined when it is not to be answered (`dropped`). */
  private async login(body: string): Promise<string | undefined> {
    const fields = body.split(';');
    let identifier: string | undefined;
    let password: string | undefined;
    if (fields[0] === '2.0') {
      if (fields.length !== 4) return '0';
      if (!checkCrc(body, ';')) return '10';
      [, identifier, password] = decodeText(body).split(';');
      this.version = '2.0';
    } else {
      if (fields.length !== 2) return '0';
      [identifier, password] = decodeText(body).split(';');
      this.version = '1.1';
    }
    if (!identifier || NA(identifier) || checkIdentifier(identifier)) return '0';
    // The tracker is looked up first, always: the answer and its timing must not tell a
    // known identifier with its own password apart from an unknown one.
    const device = await this.options.pipeline.device(identifier);
    const own = device?.wialonPasswordHash;
    const ownMatches = own ? passwordMatches(own, password ?? '') : false;
    const global = this.options.password;
    const refusal = ownMatches
      ? undefined
      : global !== undefined && password !== global
        ? '01'
        : !device || own
          ? '0'
          : undefined;
    if (refusal !== undefined || !device) {
      this.options.log.debug('wialon: login refused', { identifier });
      this.refusedLogins += 1;
      const keys = refusal === '01' ? [identifier, GLOBAL_PASSWORD_KEY] : [identifier];
      const wait = this.guard ? this.guard.refusal(keys) : 0;
      if (wait === undefined) {
        this.dropped = true;
        return undefined;
      }
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait).unref());
      return refusal ?? '0';
    }
    this.identifier = identifier;
    this.trackerId = device.id;
    this.onLogin?.(device.id);
    return '1';
  }

  /** The fields of a body; undefined when a 2.0 body's CRC does not match. */
  private fieldsOf(body: string, separator: ';' | '|'): string[] | undefined {
    const covered = this.version === '2.0' ? checkCrc(body, separator) : body;
    return covered === undefined ? undefined : decodeText(covered).split(separator);
  }

  private rules(now: Date): ParseRules {
    return { now, maxFutureSeconds: this.options.maxFutureSeconds ?? 300 };
  }

  /**
   * Confirms sent commands from the newest fix's outputs. A black box (`archived`) holds fixes
   * stored while the device was away, maybe from before the command: its fix time decides.
   * A live packet is the device's state now, whatever time it carries (a device with no GPS
   * lock repeats its last fix's time).
   */
  private async observe(fixes: Fix[], archived: boolean) {
    const { downlink } = this.options;
    if (!downlink || !this.trackerId) return;
    const newest = fixes.reduce<Fix | undefined>(
      (a, b) => (typeof b.attributes.outputs === 'number' && (!a || b.fixTime > a.fixTime) ? b : a),
      undefined,
    );
    if (!newest) return;
    try {
      await downlink.observed(
        this.trackerId,
        newest.attributes.outputs as number,
        archived ? newest.fixTime : undefined,
      );
    } catch (err) {
      // The fixes are committed: a failed confirmation never keeps them from being answered.
      this.options.log.error('wialon: command confirmation failed', {
        err,
        device: this.identifier,
      });
    }
  }

  private async data(type: 'SD' | 'D', body: string, now: Date): Promise<number> {
    if (!this.identifier) return -1;
    const fields = this.fieldsOf(body, ';');
    if (!fields) return type === 'SD' ? 13 : 16;
    let fix: Fix;
    try {
      fix = parseFix(fields, type === 'D', this.rules(now));
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      this.options.log.debug('wialon: message refused', {
        device: this.identifier,
        reason: err.reason,
      });
      return err.code;
    }
    const result = await this.options.pipeline.accept(this.identifier, [fix], 'wialon_ips');
    if (result.status !== 'ok') return -1;
    // A value the database refused (pipeline's safety net) is refused like a field in error.
    if (result.rejected.includes('invalid_value')) return type === 'SD' ? -1 : 15;
    await this.observe([fix], false);
    return 1;
  }

  private async blackBox(body: string, now: Date): Promise<number> {
    if (!this.identifier) return 0;
    const messages = this.fieldsOf(body, '|');
    if (!messages) return 0;
    const fixes: Fix[] = [];
    for (const message of messages) {
      const fields = message.split(';');
      try {
        fixes.push(parseFix(fields, fields.length === 16, this.rules(now)));
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        this.options.log.debug('wialon: black box message refused', {
          code: err.code,
          reason: err.reason,
        });
      }
    }
    if (fixes.length === 0) return 0;
    const result = await this.options.pipeline.accept(this.identifier, fixes, 'wialon_ips');
    if (result.status !== 'ok') return 0;
    await this.observe(fixes, true);
    // Every valid message is registered: stored, or filtered/repeated by policy.
    const dropped = result.rejected.filter((r) => r === 'invalid_value').length;
    return fixes.length - dropped;
  }
}
