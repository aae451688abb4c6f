import type { BotSupervisor } from '../worker/bot-supervisor';

/**
 * Resolves once the bot's runner has done every task queued so far. A tick is taken when the feed delivers
 * it: one that trades queues its orders, so after this they are booked or handed to reconciliation; one
 * that sends nothing queues nothing. Without a runner (not loaded, or being loaded again) nothing is queued.
 */
export async function runnerSettled(supervisor: BotSupervisor, botId: string): Promise<void> {
  await supervisor.runner(botId)?.serial(async () => {});
}

/**
 * Waits out a spell in which something must not happen, for a negative with no later event to check against:
 * the time itself is what is tested. A loaded machine can only make such a check miss a fault, never fail it.
 */
export function quietFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A promise and the function that resolves it: lets a test hold a transaction open until it says so. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** Resolves with the promise's value, or with 'waiting' when it is still pending after `ms`. */
export function within<T>(promise: Promise<T>, ms: number): Promise<T | 'waiting'> {
  return Promise.race([
    promise,
    new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms)),
  ]);
}
