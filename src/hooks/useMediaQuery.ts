import { useCallback, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now; follows changes (rotation, resizing). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (callback: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', callback);
      return () => list.removeEventListener('change', callback);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Phones: below this width tables become cards and the map's popup docks at the bottom. */
export const PHONE = '(max-width: 600px)';
