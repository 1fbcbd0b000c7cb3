/**
 * The signed-in session, kept in localStorage under the keys of SPEC §9: `authState`
 * (user and both tokens), `accessToken` and `refreshToken`. Other tabs see changes through
 * the storage event, so signing out in one tab signs out all of them.
 *
 * Sign-out must leave nothing of the user on a shared phone: every module that keeps data of
 * the signed-in user registers here, once, what to forget (`onSignOut`), and sign-out runs
 * them all (`forgetUser`). This is the one place to plug a new cache in, e.g. a query client:
 * `onSignOut(() => queryClient.clear())`.
 */
import * as v from 'valibot';
import { type AuthResponse, AuthResponseSchema, type SessionUser } from '../contract';

export const STORAGE_KEYS = {
  authState: 'authState',
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  fcmToken: 'fcmToken',
} as const;

export type Session = AuthResponse;
type Listener = () => void;
type Cleaner = () => void | Promise<void>;

/** localStorage keys of per-user choices: the customer picked in pickers (useSelectedClient). */
const USER_KEY_PREFIXES = ['selectedClient:'];

const cleaners = new Set<Cleaner>([
  () => {
    const s = storage();
    if (!s) return;
    const keys = Array.from({ length: s.length }, (_, i) => s.key(i)).filter(
      (key): key is string => key !== null && USER_KEY_PREFIXES.some((p) => key.startsWith(p)),
    );
    for (const key of keys) s.removeItem(key);
  },
]);

/** Registers what to forget of the user at sign-out; returns the way to unregister it. */
export function onSignOut(cleaner: Cleaner): () => void {
  cleaners.add(cleaner);
  return () => cleaners.delete(cleaner);
}

/** Runs every sign-out cleaner; one failing does not stop the others. */
export async function forgetUser(): Promise<void> {
  await Promise.all(
    [...cleaners].map(async (clean) => {
      try {
        await clean();
      } catch (error) {
        console.warn('sign-out: could not clear', error);
      }
    }),
  );
}

const listeners = new Set<Listener>();
let cached: { raw: string | null; value: Session | null } = { raw: null, value: null };

function storage(): Storage | undefined {
  return typeof localStorage === 'undefined' ? undefined : localStorage;
}

function read(): Session | null {
  const raw = storage()?.getItem(STORAGE_KEYS.authState) ?? null;
  const access = storage()?.getItem(STORAGE_KEYS.accessToken) ?? null;
  const refresh = storage()?.getItem(STORAGE_KEYS.refreshToken) ?? null;
  const key = `${raw}|${access}|${refresh}`;
  if (cached.raw === key) return cached.value;
  let value: Session | null = null;
  if (raw && access && refresh) {
    try {
      const parsed = v.safeParse(AuthResponseSchema, JSON.parse(raw));
      if (parsed.success) value = { ...parsed.output, accessToken: access, refreshToken: refresh };
    } catch {
      value = null;
    }
  }
  cached = { raw: key, value };
  return value;
}

function emit() {
  for (const listener of listeners) listener();
}

function write(next: Session) {
  const s = storage();
  if (!s) return;
  s.setItem(STORAGE_KEYS.authState, JSON.stringify(next));
  s.setItem(STORAGE_KEYS.accessToken, next.accessToken);
  s.setItem(STORAGE_KEYS.refreshToken, next.refreshToken);
  emit();
}

export const session = {
  get: read,
  accessToken: (): string | null => storage()?.getItem(STORAGE_KEYS.accessToken) ?? null,
  refreshToken: (): string | null => storage()?.getItem(STORAGE_KEYS.refreshToken) ?? null,
  set(auth: AuthResponse) {
    write(auth);
  },
  setUser(user: SessionUser) {
    const current = read();
    if (current) write({ ...current, user });
  },
  clear() {
    const s = storage();
    s?.removeItem(STORAGE_KEYS.authState);
    s?.removeItem(STORAGE_KEYS.accessToken);
    s?.removeItem(STORAGE_KEYS.refreshToken);
    emit();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || Object.values(STORAGE_KEYS).includes(event.key as never)) emit();
  });
}

/** Seconds since epoch at which a JWT expires, or undefined when it cannot be read. */
export function tokenExpiry(token: string | null): number | undefined {
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as {
      exp?: unknown;
    };
    return typeof json.exp === 'number' ? json.exp : undefined;
  } catch {
    return undefined;
  }
}

export function isTokenExpired(token: string | null, now = Date.now()): boolean {
  const exp = tokenExpiry(token);
  return exp !== undefined && exp * 1000 <= now;
}
