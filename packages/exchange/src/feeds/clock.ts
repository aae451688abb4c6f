/**
 * Time source of the feeds and the paper exchange, injectable so tests drive them with a fake clock
 * (`testing/fake-clock.ts`) instead of waiting.
 */
export interface Clock {
  /** Wall-clock time in ms since the epoch. */
  now(): number;
  /** Calls `fn` every `intervalMs` until the returned function is called. */
  setInterval(fn: () => void, intervalMs: number): () => void;
}

/** The real clock (`Date.now`, `setInterval`, unref'd so a feed never keeps the process alive alone). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setInterval(fn, intervalMs) {
    const handle = setInterval(fn, intervalMs);
    handle.unref?.();
    return () => clearInterval(handle);
  },
};
