import { useLayoutEffect, useRef, useState } from 'react';

/** Width of a container in px, kept up to date on resize (charts draw to it); never below `minWidth`. */
export function useElementWidth(minWidth: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(300);
  useLayoutEffect(() => {
    const node = ref.current;
    if (!node) return;
    const measure = () => setWidth(Math.max(node.clientWidth, minWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [minWidth]);
  return { ref, width };
}
