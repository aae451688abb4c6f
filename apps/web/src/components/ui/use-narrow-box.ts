import { MOBILE_QUERY, useMediaQuery } from '../../lib/use-media-query';
import { useElementWidth } from './use-element-width';

/**
 * Whether a box should take its phone layout: below the mobile breakpoint, or narrower than `minPx` (a card
 * beside the sidebar on a tablet is as narrow as a phone). The width is 0 until laid out, and where nothing is
 * (unit tests): then the breakpoint alone decides. Put `ref` on the box.
 */
export function useNarrowBox(minPx: number) {
  const mobile = useMediaQuery(MOBILE_QUERY);
  const { ref, width } = useElementWidth(0);
  return { ref, narrow: mobile || (width > 0 && width < minPx) };
}
