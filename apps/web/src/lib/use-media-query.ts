import { useSyncExternalStore } from 'react';

/** docs/spec/01-core-screens.md Shell: the mobile breakpoint is 768 px. */
export const MOBILE_QUERY = '(max-width: 767.98px)';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener?.('change', onChange);
      return () => list.removeEventListener?.('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
