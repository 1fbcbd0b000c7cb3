/**
 * The driver's session kept on this device (the page of /motorista), apart from the driver's
 * calls so that the app's shell can tell, without loading them, that this device is a
 * driver's: the installed app opens at '/', and a driver has no user session there.
 */
import type { DriverSession } from '../contract/driver-page';

const DRIVER_SESSION_KEY = 'rastro-driver-session';

/** What the device keeps of the driver's session. */
export interface KeptDriverSession extends DriverSession {
  /** The link it was opened with: another link on this device asks for its own PIN. */
  linkToken: string;
}

export const driverSession = {
  get(): KeptDriverSession | undefined {
    try {
      const kept = JSON.parse(
        localStorage.getItem(DRIVER_SESSION_KEY) ?? 'null',
      ) as KeptDriverSession | null;
      if (!kept || Date.parse(kept.expiresAt) <= Date.now()) return undefined;
      return kept;
    } catch {
      return undefined;
    }
  },
  set(value: KeptDriverSession) {
    localStorage.setItem(DRIVER_SESSION_KEY, JSON.stringify(value));
  },
  clear() {
    localStorage.removeItem(DRIVER_SESSION_KEY);
  },
};

/** A driver's page was opened on this device and its session still works. */
export const hasDriverSession = () => driverSession.get() !== undefined;
