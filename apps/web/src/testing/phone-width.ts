import { vi } from 'vitest';
import { MOBILE_QUERY } from '../lib/use-media-query';

/** Media-aware components see a phone (below the 768 px breakpoint) until the test ends. */
export function onPhoneWidth(): void {
  const real = window.matchMedia;
  vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({
    ...real(query),
    matches: query === MOBILE_QUERY,
  }));
}
