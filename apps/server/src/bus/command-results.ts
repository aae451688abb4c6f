/**
 * Answers to the API's bot commands (docs/architecture.md §3): the worker that owns a bot says on the bus when
 * it has applied, finished or failed commands of the bot, and a request waiting for its command reads the
 * command's row (the source of truth) on each such word instead of polling. A lost message only makes the
 * request wait for its deadline and one final read.
 */
import { type Bus, channels } from './bus';

/** The owner of `botId` settled some of its commands (applied, done or failed). */
export async function publishCommandsSettled(bus: Bus, botId: string): Promise<void> {
  await bus.publish(channels.commands, botId);
}

export interface CommandSettlements {
  /** Resolves at the next word about the bot, or after `ms` without one. */
  next(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Listens for words about one bot; without a bus, `next` only waits out its time. */
export async function commandSettlements(bus: Bus | undefined, botId: string): Promise<CommandSettlements> {
  let heard = false;
  let wake: (() => void) | undefined;
  const unsubscribe = bus
    ? await bus.subscribe(channels.commands, (message) => {
        if (message !== botId) return;
        heard = true;
        wake?.();
      })
    : async () => {};
  return {
    async next(ms) {
      if (!heard) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          timer.unref();
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      heard = false;
      wake = undefined;
    },
    close: unsubscribe,
  };
}
