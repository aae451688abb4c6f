import { useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { MOBILE_QUERY, useMediaQuery } from '../../lib/use-media-query';

/**
 * Whether a box should take its phone layout: below the mobile breakpoint, or narrower than `minPx` (a card
 * beside the sidebar on a tablet is as narrow as a phone). Put `ref` on the box.
 *
 * Below the breakpoint nothing is measured. Above it a ResizeObserver reports the box's width once the browser
 * has laid the page out, and a change of answer is drawn before that frame is painted (`flushSync`), so a box
 * never shows its wide layout first. Reading the width in a layout effect instead forced a layout of the whole
 * page in the middle of React's commit and a second render at once: the longest task of a phone's page load.
 * Where nothing is laid out (unit tests) the breakpoint alone decides.
 */
export function useNarrowBox(minPx: number) {
  const mobile = useMediaQuery(MOBILE_QUERY);
  const ref = useRef<HTMLDivElement>(null);
  const [narrowBox, setNarrowBox] = useState(false);
  useLayoutEffect(() => {
    const node = ref.current;
    if (mobile || !node || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const width = entry?.contentRect.width ?? 0;
      flushSync(() => setNarrowBox(width > 0 && width < minPx));
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [mobile, minPx]);
  return { ref, narrow: mobile || narrowBox };
}
