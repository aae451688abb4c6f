import type { BudgetClock } from '../budget/request-budget';

/**
 * Time that moves only when everything else is waiting: `run()` lets pending promises settle, then jumps to the
 * earliest sleeper and wakes it, until nobody sleeps. Budgets driven by it wait minutes in microseconds.
 */
export class VirtualTime implements BudgetClock {
  private timeMs: number;
  private readonly sleepers: { atMs: number; wake: () => void }[] = [];
  /** Every sleep asked for (ms), in order. */
  readonly sleeps: number[] = [];

  constructor(startMs = 0) {
    this.timeMs = startMs;
  }

  now(): number {
    return this.timeMs;
  }

  sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    return new Promise((wake) => {
      this.sleepers.push({ atMs: this.timeMs + Math.max(0, ms), wake });
    });
  }

  /** Runs until no promise is pending and nobody sleeps, or until `untilMs` is reached. */
  async run(untilMs = Number.POSITIVE_INFINITY): Promise<void> {
    for (;;) {
      await settle();
      this.sleepers.sort((a, b) => a.atMs - b.atMs);
      const first = this.sleepers[0];
      if (!first || first.atMs > untilMs) return;
      this.sleepers.shift();
      this.timeMs = Math.max(this.timeMs, first.atMs);
      first.wake();
    }
  }
}

/** Lets every promise chain that can move, move (a macrotask turn after the microtasks). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
