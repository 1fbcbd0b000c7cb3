import { useSyncExternalStore } from 'react';
import { type Session, session } from '../api/session';

/** The current session; re-renders on sign-in, refresh, sign-out (in any tab). */
export function useSession(): Session | null {
  return useSyncExternalStore(session.subscribe, session.get, () => null);
}
