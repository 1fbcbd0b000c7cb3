/**
 * Passwords are hashed with argon2id (memory-hard). A login for an unknown e-mail still
 * verifies against a fixed hash so that response time does not reveal which e-mails exist.
 */
import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id profile (19 MiB, 2 passes); argon2id is the library's default algorithm. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

let dummyHash: Promise<string> | undefined;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('rastro-senha-inexistente');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
