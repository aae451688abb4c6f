/**
 * A place at the back of the event loop for work that can wait for the I/O already in. Callers of
 * `afterPendingIo()` resume a few a turn (`PER_TURN`), each group after the I/O callbacks ready in its turn have
 * run: the worker books a wave of fills this way, so the database's answers that release other bots' orders
 * (their intents written) and the next ticks are handled between two groups of bookings instead of after the
 * whole wave. Callers resume in the order they asked.
 */
const waiting: Array<() => void> = [];
let scheduled = false;

/**
 * Callers resumed in one turn. A group's bookings still share their statements (the group commit's smallest
 * split is 16 requests): one a turn made the grouped writes smaller and more numerous and nearly doubled the
 * database's CPU (docs/benchmarks.md, Scale-out). Sixteen bookings take a few milliseconds.
 */
const PER_TURN = 16;

export function afterPendingIo(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(resumeSome);
    }
  });
}

/** Resumes a group; the rest wait for the next turn (an immediate set now runs after that turn's I/O). */
function resumeSome(): void {
  for (const resume of waiting.splice(0, PER_TURN)) resume();
  if (waiting.length > 0) setImmediate(resumeSome);
  else scheduled = false;
}
