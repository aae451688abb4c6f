interface TaskScheduler {
  yield(): Promise<void>;
}

/**
 * Lets the browser run its other work before the caller goes on: the rest runs in a task of its own where the
 * browser offers `scheduler.yield()` (Chromium, Firefox), at once where it does not (Safari, the tests' DOM).
 *
 * Why: a page's first commit subscribes every query of the screen at once, and each `fetch()` costs the main
 * thread a few milliseconds to start; a dozen of them in the commit's effects made one task long enough to block
 * input on a phone (docs/benchmarks.md, Web). Continuations of `scheduler.yield()` run ahead of other queued tasks,
 * so a request waits no longer than the tasks before it.
 */
export function yieldToBrowser(): Promise<void> | undefined {
  const scheduler = (globalThis as { scheduler?: Partial<TaskScheduler> }).scheduler;
  return typeof scheduler?.yield === 'function' ? scheduler.yield() : undefined;
}
