/**
 * Runs `callback` in a task of its own, after the tasks already queued: a message posted on the page's own
 * channel, the way React's scheduler queues its work. `setTimeout(callback, 0)` does the same job, but a timer
 * is among the dearest calls to trace: with the trace categories Lighthouse records, each `setTimeout`,
 * `clearTimeout` or `scheduler.yield()` took 0.1–0.9 ms in this Chromium (the browser keeps the caller's stack
 * for the trace), against about 0.01 ms for a posted message (docs/benchmarks.md, Web).
 */
export function runInNextTask(callback: () => void): void {
  queue.push(callback);
  channel ??= openChannel();
  // One message a callback: each runs in a task of its own, as each `setTimeout(…, 0)` would.
  channel.port2.postMessage(undefined);
}

/** A promise that settles in a task of its own (see `runInNextTask`). */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => runInNextTask(resolve));
}

const queue: (() => void)[] = [];
let channel: MessageChannel | undefined;

function openChannel(): MessageChannel {
  const opened = new MessageChannel();
  opened.port1.onmessage = () => queue.shift()?.();
  // In Node (the tests), a listening port would keep the process alive after the last test.
  (opened.port1 as { unref?: () => void }).unref?.();
  return opened;
}
