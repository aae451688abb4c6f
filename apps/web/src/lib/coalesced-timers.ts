import type { TimeoutProvider } from '@tanstack/react-query';

interface Timer {
  due: number;
  callback: () => void;
  /** Set for an interval: the period after which it runs again. */
  every?: number;
}

const OVERDUE_MS = 1000;

/**
 * Timers kept on one browser timer, set for the earliest of them: TanStack Query's (garbage collection of unused
 * data, staleness, polling intervals, retry pauses) and the page's waits for a settled moment. TanStack's `timeoutManager.setTimeoutProvider` is the
 * documented place for a provider that coalesces timeouts. A screen's first commit sets and clears a timer or
 * two per query, and with the trace categories Lighthouse records each of those calls took 0.1–0.9 ms in this
 * Chromium (docs/benchmarks.md, Web); here a new timer touches the browser's only when it is due before every
 * other, and a cleared one never. Every timer still runs when it is due, not later: only the browser timers are
 * shared, not the deadlines.
 */
export function coalescedTimers(now: () => number = () => performance.now()): TimeoutProvider<number> {
  const timers = new Map<number, Timer>();
  let lastId = 0;
  let armed: { at: number; handle: ReturnType<typeof setTimeout> } | undefined;

  const armFor = (due: number) => {
    let at = due;
    if (armed) {
      // A browser timer well past its time was throttled, or lost with the fake clock a test has uninstalled:
      // a new one is armed for what it was waiting for rather than waited on (an extra wake-up at worst).
      const overdue = now() >= armed.at + OVERDUE_MS;
      if (!overdue && armed.at <= due) return;
      clearTimeout(armed.handle);
      if (overdue) at = Math.min(due, armed.at);
    }
    armed = { at, handle: setTimeout(runDue, Math.max(0, at - now())) };
  };

  function runDue() {
    armed = undefined;
    const at = now();
    // A browser timer may wake a fraction of a millisecond before the clock reads its deadline.
    const due = [...timers].filter(([, timer]) => timer.due <= at + 1);
    for (const [id, timer] of due) {
      // Cleared by a callback that ran before it.
      if (timers.get(id) !== timer) continue;
      if (timer.every === undefined) timers.delete(id);
      else timer.due = at + timer.every;
      try {
        timer.callback();
      } catch (error) {
        // One failing callback must not hold back the others; the error is still reported as uncaught.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    let earliest = Number.POSITIVE_INFINITY;
    for (const timer of timers.values()) earliest = Math.min(earliest, timer.due);
    if (earliest !== Number.POSITIVE_INFINITY) armFor(earliest);
  }

  const add = (callback: () => void, delay: number, every?: number) => {
    lastId += 1;
    const due = now() + Math.max(0, delay);
    timers.set(lastId, { due, callback, every });
    armFor(due);
    return lastId;
  };
  const remove = (id: number | undefined) => {
    if (id !== undefined) timers.delete(id);
  };
  return {
    setTimeout: (callback, delay) => add(callback, delay),
    clearTimeout: remove,
    setInterval: (callback, delay) => add(callback, delay, Math.max(1, delay)),
    clearInterval: remove,
  };
}

/** The page's one set of coalesced timers: TanStack Query's (lib/query-client.ts) and `whenIdle`'s. */
export const pageTimers = coalescedTimers();
