/**
 * Two-step sign-in: the one-time codes of the authenticator apps (HOTP, RFC 4226, and its
 * time-based form TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps), the secret they share
 * with us, kept encrypted, and the one-use recovery codes.
 *
 * The secret is encrypted with AES-256-GCM under a key derived (HKDF) from the server's
 * signing secret, with the user's id as associated data: a database copy alone reveals no
 * secret, and a secret moved to another user's row does not decrypt.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now that are still accepted: a phone's clock a little off. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
export const ISSUER = 'Rastro';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226: the code of one counter value. */
export function hotp(
  key: Uint8Array,
  counter: number,
  digits = TOTP_DIGITS,
  algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1',
): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238: the step a moment falls in. */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);
}

export function totp(key: Uint8Array, nowMs: number, digits = TOTP_DIGITS): string {
  return hotp(key, totpStep(nowMs), digits);
}

/**
 * The step whose code this is, within the window around now, or undefined. Every step of
 * the window is compared (in constant time), so the answer's timing tells nothing.
 */
export function matchingStep(key: Uint8Array, code: string, nowMs: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const given = Buffer.from(code);
  const now = totpStep(nowMs);
  let found: number | undefined;
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    const same = timingSafeEqual(Buffer.from(hotp(key, step)), given);
    if (same && found === undefined) found = step;
  }
  return found;
}

export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** What the authenticator apps read from the QR code. */
export function otpauthUri(secret: string, email: string): string {
  const label = encodeURIComponent(`${ISSUER}:${email}`);
  const params = new URLSearchParams({
    secret,
    issuer: ISSUER,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${params}`;
}

function secretKey(serverSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, 'rastro', 'two-factor-secret', 32));
}

/** 'v1.<iv>.<tag>.<ciphertext>', base64url. */
export function encryptSecret(secret: string, userId: string, serverSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(serverSecret), iv);
  cipher.setAAD(Buffer.from(userId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The secret, or undefined when it cannot be read (another server secret, a moved row). */
export function decryptSecret(
  stored: string,
  userId: string,
  serverSecret: string,
): string | undefined {
  const [version, iv, tag, body] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) return undefined;
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      secretKey(serverSecret),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(body, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    return undefined;
  }
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten characters (about 49 bits) in two groups: 'k7m2p-x9qaw'. */
export function newRecoveryCode(): string {
  const chars = Array.from(
    { length: 10 },
    () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
  );
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** How a typed recovery code is compared: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The stored form: a hash bound to the user, so equal codes of two users differ. */
export function hashRecoveryCode(code: string, userId: string): string {
  return createHash('sha256')
    .update(`${userId}:${normalizeRecoveryCode(code)}`)
    .digest('base64url');
}
