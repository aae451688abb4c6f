import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalescedTimers } from './coalesced-timers';

describe('coalescedTimers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs each timeout when it is due, on one browser timer at a time', () => {
    const timers = coalescedTimers();
    const browserTimers = vi.spyOn(globalThis, 'setTimeout');
    const ran: string[] = [];
    timers.setTimeout(() => ran.push('gc at 300 s'), 300_000);
    timers.setTimeout(() => ran.push('stale at 5 s'), 5_000);
    timers.setTimeout(() => ran.push('stale at 5 s, later'), 5_000);
    timers.setTimeout(() => ran.push('gc at 300 s, later'), 300_000);
    // The first, then only the earlier one: four timeouts, two browser timers set.
    expect(browserTimers).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(4_999);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(['stale at 5 s', 'stale at 5 s, later']);
    vi.advanceTimersByTime(294_999);
    expect(ran).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(['stale at 5 s', 'stale at 5 s, later', 'gc at 300 s', 'gc at 300 s, later']);
  });

  it('never runs a cleared timeout or interval, and clears without calling the browser', () => {
    const timers = coalescedTimers();
    const browserClears = vi.spyOn(globalThis, 'clearTimeout');
    const ran = vi.fn();
    const timeout = timers.setTimeout(ran, 1_000);
    const interval = timers.setInterval(ran, 2_000);
    timers.clearTimeout(timeout);
    timers.clearInterval(interval);
    timers.clearTimeout(undefined);
    vi.advanceTimersByTime(10_000);
    expect(ran).not.toHaveBeenCalled();
    expect(browserClears).not.toHaveBeenCalled();
  });

  it('repeats an interval every period until cleared, with timeouts due in between', () => {
    const timers = coalescedTimers();
    const start = performance.now();
    const ran: string[] = [];
    const interval = timers.setInterval(() => ran.push(`interval at ${performance.now() - start}`), 5_000);
    timers.setTimeout(() => ran.push(`timeout at ${performance.now() - start}`), 7_000);
    vi.advanceTimersByTime(15_000);
    expect(ran).toEqual(['interval at 5000', 'timeout at 7000', 'interval at 10000', 'interval at 15000']);
    timers.clearInterval(interval);
    vi.advanceTimersByTime(15_000);
    expect(ran).toHaveLength(4);
  });

  it('runs the other due callbacks when one throws, and reports the error as uncaught', async () => {
    const timers = coalescedTimers();
    const reported: unknown[] = [];
    const failure = new Error('callback failed');
    const spy = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => {
      try {
        task();
      } catch (error) {
        reported.push(error);
      }
    });
    const after = vi.fn();
    timers.setTimeout(() => {
      throw failure;
    }, 100);
    timers.setTimeout(after, 100);
    vi.advanceTimersByTime(100);
    expect(after).toHaveBeenCalledTimes(1);
    expect(reported).toEqual([failure]);
    spy.mockRestore();
  });

  it('arms a new browser timer when the one it waits on is long overdue (lost or throttled)', () => {
    const timers = coalescedTimers();
    // The first browser timer never fires, as when the fake clock that held it was uninstalled.
    vi.spyOn(globalThis, 'setTimeout').mockImplementationOnce(
      () => 0 as unknown as ReturnType<typeof setTimeout>,
    );
    const ran: string[] = [];
    timers.setTimeout(() => ran.push('lost'), 1_000);
    vi.advanceTimersByTime(2_500);
    expect(ran).toEqual([]);
    timers.setTimeout(() => ran.push('later'), 1_000);
    vi.advanceTimersByTime(0);
    expect(ran).toEqual(['lost']);
    vi.advanceTimersByTime(1_000);
    expect(ran).toEqual(['lost', 'later']);
  });

  it('skips a due timeout that an earlier callback of the same moment cleared', () => {
    const timers = coalescedTimers();
    const second = vi.fn();
    let secondId: number | undefined;
    timers.setTimeout(() => timers.clearTimeout(secondId), 1_000);
    secondId = timers.setTimeout(second, 1_000);
    vi.advanceTimersByTime(2_000);
    expect(second).not.toHaveBeenCalled();
  });
});
