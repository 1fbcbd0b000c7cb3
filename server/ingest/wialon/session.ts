/**
 * One Wialon IPS device's conversation: its login, then its packets, each answered only after
 * its fixes are committed. A malformed line gets its error code and never closes the
 * connection or touches another device's data. Over UDP (udp.ts) every datagram names its
 * device and there is no login: the same session answers it, as a device without a password.
 *
 * Logins (server/ingest/identity.ts): the tracker must be bound to Wialon IPS and the device
 * must give its own password, unless its tracker lets it in without one ("Aceitar sem
 * senha"), and then its link takes no command. Any refusal is answered exactly as an unknown
 * identifier is (`#AL#0`, or `#AL#01` when WIALON_IPS_PASSWORD is set and differs), so
 * identifiers cannot be probed; guessing is slowed (login-guard.ts).
 *
 * A message that can never be stored must not block a device's queue. Gurtam's document
 * gives `#AB#n` as the number of messages registered, and says nothing of what a device does
 * with fewer: so a black box first gets the honest count, and a bad message the device sends
 * again (it resends what was not counted) is counted the second time as received, logged and
 * counted as refused, so that the device moves on (BadMessages). A single `#D#`/`#SD#` gets
 * the code of its field in error, as the document says; a fix whose time another fix holds
 * gets `0` (incorrect time). A CRC error asks for the packet again (`#AD#16`, empty `#AB#`).
 */
import { createHash } from 'node:crypto';
import type { Logger } from '../../platform/log';
import { checkIdentifier } from '../bounds';
import type { DeviceStatus } from '../device-status';
import type { DeviceLink, Downlink, LinkHandle } from '../downlink';
import { type Credential, checkIdentity, type DeviceAuth } from '../identity';
import type { Pipeline } from '../pipeline';
import type { Fix } from '../queries/positions';
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
  /** DEVICE_AUTH (default 'required'). */
  auth?: DeviceAuth | undefined;
  /** What each device last told us (installers' view). */
  status?: DeviceStatus | undefined;
}

/** Bad messages remembered per listener at most, and for how long. */
const MAX_BAD_MESSAGES = 10_000;
const BAD_MESSAGE_MS = 24 * 3600_000;

/**
 * Black box messages that could not be stored, per device, so that the same message sent again
 * is recognised (see the file's comment). Bounded: the oldest is forgotten first.
 */
export class BadMessages {
  private readonly seen = new Map<string, number>();

  private key(identifier: string, message: string) {
    return createHash('sha1').update(identifier).update('\u0000').update(message).digest('hex');
  }

  /** Remembers it; true when it was seen before (then forgotten: counted once). */
  again(identifier: string, message: string, now = Date.now()): boolean {
    const key = this.key(identifier, message);
    const at = this.seen.get(key);
    if (at !== undefined && now - at < BAD_MESSAGE_MS) {
      this.seen.delete(key);
      return true;
    }
    this.seen.delete(key);
    this.seen.set(key, now);
    if (this.seen.size > MAX_BAD_MESSAGES) {
      const oldest = this.seen.keys().next();
      if (!oldest.done) this.seen.delete(oldest.value);
    }
    return false;
  }
}

/** One device's state: which tracker it speaks for, with which protocol version and proof. */
export class WialonSession {
  identifier: string | undefined;
  trackerId: string | undefined;
  version: '1.1' | '2.0' = '1.1';
  /** How its messages prove who sent them (a TCP login, or nothing over UDP). */
  credential: Credential = { kind: 'session', authenticated: false };
  /** Called once the device logged in (the listener attaches its downlink). */
  onLogin: ((trackerId: string, authenticated: boolean) => void) | undefined;
  /** The downlink's handle of this session's link, once logged in over TCP. */
  link: { handle: LinkHandle; link: DeviceLink } | undefined;
  /** Logins refused for their password or identifier on this connection. */
  refusedLogins = 0;
  /** A refused login was not answered (LoginGuard): the connection is to be closed. */
  dropped = false;

  constructor(
    private readonly options: WialonOptions,
    private readonly guard?: LoginGuard,
    readonly address?: string,
    private readonly bad = new BadMessages(),
  ) {}

  /** A UDP datagram's device: no login, no password (server/ingest/wialon/udp.ts). */
  datagram(identifier: string, version: '1.1' | '2.0') {
    this.identifier = identifier;
    this.version = version;
    this.credential = { kind: 'password', password: undefined };
  }

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
        this.heard();
        if (this.trackerId)
          this.options.status?.heartbeat(this.trackerId, 'wialon_ips', this.address);
        return '#AP#';
      case 'SD':
      case 'D':
        return `#A${type}#${await this.data(type, body, now)}`;
      case 'B':
        return `#AB#${await this.blackBox(body, now)}`;
      case 'M':
        this.heard();
        return this.identifier ? '#AM#1' : '#AM#0';
      default:
        this.options.log.debug('wialon: unknown packet', { type });
        return undefined;
    }
  }

  /** The device spoke (its link is alive: see the downlink's rules for two sessions). */
  private heard() {
    this.link?.handle.heard();
  }

  /** The login's answer code; undefined when it is not to be answered (`dropped`). */
  private async login(body: string): Promise<string | undefined> {
    const fields = body.split(';');
    let identifier: string | undefined;
    let given: string | undefined;
    if (fields[0] === '2.0') {
      if (fields.length !== 4) return '0';
      if (!checkCrc(body, ';')) return '10';
      [, identifier, given] = decodeText(body).split(';');
      this.version = '2.0';
    } else {
      if (fields.length !== 2) return '0';
      [identifier, given] = decodeText(body).split(';');
      this.version = '1.1';
    }
    if (!identifier || NA(identifier) || checkIdentifier(identifier)) return '0';
    const password = NA(given) ? undefined : given;
    // The tracker is looked up first, always: the answer and its timing must not tell a
    // known identifier apart from an unknown one.
    const device = await this.options.pipeline.device(identifier);
    const identity = checkIdentity(
      device,
      { protocol: 'wialon_ips', address: this.address, credential: { kind: 'password', password } },
      this.options.auth ?? 'required',
    );
    const global = this.options.password;
    // A device with its own password passes on it alone; any other must also know the
    // listener's global password, when one is set.
    const ownPassed = identity.ok && identity.authenticated;
    const globalWrong = global !== undefined && password !== global && !ownPassed;
    if (!identity.ok || globalWrong || !device) {
      this.options.log.debug('wialon: login refused', { identifier });
      this.options.status?.login({
        identifier,
        trackerId: device?.id,
        protocol: 'wialon_ips',
        address: this.address,
        refusal: identity.ok ? 'wrong_password' : identity.reason,
      });
      this.refusedLogins += 1;
      const keys = globalWrong ? [identifier, GLOBAL_PASSWORD_KEY] : [identifier];
      const wait = this.guard ? this.guard.refusal(keys) : 0;
      if (wait === undefined) {
        this.dropped = true;
        return undefined;
      }
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait).unref());
      return globalWrong ? '01' : '0';
    }
    this.identifier = identifier;
    this.trackerId = device.id;
    this.credential = { kind: 'session', authenticated: identity.authenticated };
    this.options.status?.login({
      identifier,
      trackerId: device.id,
      protocol: 'wialon_ips',
      address: this.address,
      authenticated: identity.authenticated,
    });
    this.onLogin?.(device.id, identity.authenticated);
    return '1';
  }

  /** The fields of a body; undefined when a 2.0 body's CRC does not match. */
  private fieldsOf(body: string, separator: ';' | '|'): string[] | undefined {
    const covered = this.version === '2.0' ? checkCrc(body, separator) : body;
    return covered === undefined ? undefined : decodeText(covered).split(separator);
  }

  private rules(now: Date): ParseRules {
    return { now, maxFutureSeconds: this.options.maxFutureSeconds ?? 60 };
  }

  private accept(identifier: string, fixes: Fix[]) {
    return this.options.pipeline.accept(identifier, fixes, {
      protocol: 'wialon_ips',
      address: this.address,
      credential: this.credential,
    });
  }

  /** A known tracker's message refused before storing: shown on its page, counted. */
  private refused(reason: string) {
    this.options.log.debug('wialon: message refused', { device: this.identifier, reason });
    if (this.trackerId)
      this.options.status?.refused(this.trackerId, 'wialon_ips', this.address, 'malformed');
  }

  /**
   * Confirms sent commands from the newest fix's outputs. A black box (`archived`) holds fixes
   * stored while the device was away, maybe from before the command: its fix time decides.
   * A live packet is the device's state now, whatever time it carries (a device with no GPS
   * lock repeats its last fix's time).
   */
  private async observe(fixes: Fix[], archived: boolean) {
    const { downlink } = this.options;
    if (!downlink || !this.trackerId || !this.link) return;
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
        this.link.link,
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
    this.heard();
    const fields = this.fieldsOf(body, ';');
    if (!fields) return type === 'SD' ? 13 : 16;
    let fix: Fix;
    try {
      fix = parseFix(fields, type === 'D', this.rules(now));
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      this.refused(err.reason);
      return err.code;
    }
    const result = await this.accept(this.identifier, [fix]);
    if (result.status !== 'ok') return -1;
    // A value the database refused (pipeline's safety net) is refused like a field in error.
    if (result.rejected.includes('invalid_value')) return type === 'SD' ? -1 : 15;
    // Another fix holds its time: not stored, and said so ("incorrect time").
    if (result.rejected.includes('conflict')) return 0;
    await this.observe([fix], false);
    return 1;
  }

  /** The `#AB#` count, or '' (a CRC error: the device sends the packet again). */
  private async blackBox(body: string, now: Date): Promise<number | ''> {
    if (!this.identifier) return 0;
    this.heard();
    const identifier = this.identifier;
    const messages = this.fieldsOf(body, '|');
    if (!messages) return '';
    const parsed: { message: string; fix: Fix }[] = [];
    /** Messages that cannot be stored and were sent before: received, so the device moves on. */
    let given = 0;
    for (const message of messages) {
      const fields = message.split(';');
      try {
        parsed.push({ message, fix: parseFix(fields, fields.length === 16, this.rules(now)) });
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        this.refused(err.reason);
        if (this.bad.again(identifier, message)) {
          given += 1;
          this.options.log.warn('wialon: black box message that cannot be stored, skipped', {
            device: identifier,
            reason: err.reason,
          });
        }
      }
    }
    if (parsed.length === 0) return given;
    const result = await this.accept(
      identifier,
      parsed.map((p) => p.fix),
    );
    if (result.status !== 'ok') return 0;
    await this.observe(
      parsed.map((p) => p.fix),
      true,
    );
    // Every valid message is registered: stored, or filtered/repeated by policy; those the
    // database refused and those in conflict are not, the first time.
    const unstored = new Set(result.unstored ?? []);
    let registered = 0;
    for (const { message, fix } of parsed) {
      if (!unstored.has(fix)) registered += 1;
      else if (this.bad.again(identifier, message)) given += 1;
    }
    return registered + given;
  }
}
