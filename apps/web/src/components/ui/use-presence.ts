import { useEffect, useState } from 'react';

function nextFrame(callback: () => void): () => void {
  if (typeof requestAnimationFrame === 'function') {
    let inner = 0;
    const outer = requestAnimationFrame(() => {
      inner = requestAnimationFrame(callback);
    });
    return () => {
      cancelAnimationFrame(outer);
      cancelAnimationFrame(inner);
    };
  }
  const id = setTimeout(callback, 16);
  return () => clearTimeout(id);
}

/**
 * Mount/unmount with an enter and exit transition: `mounted` stays true for `exitMs` after `open` turns
 * false, and `visible` turns true one frame after mounting so the CSS transition runs.
 */
export function usePresence(open: boolean, exitMs: number) {
  const [mounted, setMounted] = useState(open);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (open) {
      setMounted(true);
      return nextFrame(() => setVisible(true));
    }
    setVisible(false);
    const id = setTimeout(() => setMounted(false), exitMs);
    return () => clearTimeout(id);
  }, [open, exitMs]);

  return { mounted, visible };
}
