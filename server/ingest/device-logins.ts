/**
 * Device logins asked in the same turn of the event loop are looked up in one query: after a
 * restart a whole fleet reconnects at once, and one query per device would queue hundreds of
 * lookups ahead of the batches being written (on PGlite, statements run one at a time).
 */
import type { Db } from '../platform/db/client';
import { type DeviceLogin, deviceLogins } from './queries/positions';

export function batchedDeviceLogins(db: Db) {
  let waiting = new Map<string, ((login: DeviceLogin | undefined) => void)[]>();
  let failing = new Map<string, ((err: unknown) => void)[]>();
  const run = () => {
    const asked = waiting;
    const failed = failing;
    waiting = new Map();
    failing = new Map();
    deviceLogins(db, [...asked.keys()]).then(
      (found) => {
        for (const [identifier, resolvers] of asked)
          for (const resolve of resolvers) resolve(found.get(identifier));
      },
      (err: unknown) => {
        for (const rejecters of failed.values()) for (const reject of rejecters) reject(err);
      },
    );
  };
  return {
    /** The active tracker with this identifier, looked up with the others asked this turn. */
    load(identifier: string) {
      return new Promise<DeviceLogin | undefined>((resolve, reject) => {
        if (waiting.size === 0) setImmediate(run);
        waiting.set(identifier, [...(waiting.get(identifier) ?? []), resolve]);
        failing.set(identifier, [...(failing.get(identifier) ?? []), reject]);
      });
    },
  };
}
