import type { Clock } from '../feeds/clock';

interface Timer {
  fn: () => void;
  intervalMs: number;
  nextMs: number;
  active: boolean;
}

/** A clock that moves only when told: `advance(ms)` runs due interval callbacks in time order. */
export class FakeClock implements Clock {
  private timeMs: number;
  private readonly timers: Timer[] = [];

  constructor(startMs = Date.UTC(2025, 0, 1)) {
    this.timeMs = startMs;
  }

  now(): number {
    return this.timeMs;
  }

  setInterval(fn: () => void, intervalMs: number): () => void {
    const timer: Timer = { fn, intervalMs, nextMs: this.timeMs + intervalMs, active: true };
    this.timers.push(timer);
    return () => {
      timer.active = false;
    };
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const endMs = this.timeMs + ms;
    for (;;) {
      const due = this.timers
        .filter((t) => t.active && t.nextMs <= endMs)
        .sort((a, b) => a.nextMs - b.nextMs)[0];
      if (!due) break;
      this.timeMs = due.nextMs;
      due.nextMs += due.intervalMs;
      due.fn();
    }
    this.timeMs = endMs;
  }
}
