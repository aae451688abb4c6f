/**
 * Answers to the API's bot commands (docs/architecture.md §3): the worker that owns a bot says on the bus when
 * it has applied, finished or failed commands of the bot, and a request waiting for its command reads the
 * command's row (the source of truth) on each such word instead of polling. A lost message only makes the
 * request wait for its deadline and one final read. While the bus is down (a Redis restart) no word can come,
 * so the row is read once a second until the bus is back: commands still apply through the database.
 */
import { type Bus, channels } from './bus';

/** Re-read interval while the bus cannot carry words. */
const BUS_DOWN_READ_MS = 1_000;
/** How long a first request waits for the process's subscription before it goes on. */
const SUBSCRIBE_WAIT_MS = 500;

/** The owner of `botId` settled some of its commands (applied, done or failed). */
export async function publishCommandsSettled(bus: Bus, botId: string): Promise<void> {
  await bus.publish(channels.commands, botId);
}

export interface CommandSettlements {
  /** Resolves at the next word about the bot, or after `ms` without one. */
  next(ms: number): Promise<void>;
  close(): void;
}

/** One subscription per bus and process, shared by every waiting request. */
interface Hub {
  subscribed: Promise<unknown>;
  waiting: Map<string, Set<() => void>>;
}
const hubs = new WeakMap<Bus, Hub>();

function hubOf(bus: Bus): Hub {
  let hub = hubs.get(bus);
  if (!hub) {
    const waiting = new Map<string, Set<() => void>>();
    const subscribed = bus
      .subscribe(channels.commands, (botId) => {
        for (const wake of waiting.get(botId) ?? []) wake();
      })
      .catch(() => undefined);
    hub = { subscribed, waiting };
    hubs.set(bus, hub);
  }
  return hub;
}

/** Listens for words about one bot; without a bus, `next` only waits out its time. */
export async function commandSettlements(bus: Bus | undefined, botId: string): Promise<CommandSettlements> {
  let heard = false;
  let wake: (() => void) | undefined;
  const onWord = () => {
    heard = true;
    wake?.();
  };
  const hub = bus ? hubOf(bus) : undefined;
  if (hub) {
    const set = hub.waiting.get(botId) ?? new Set();
    set.add(onWord);
    hub.waiting.set(botId, set);
    await Promise.race([
      hub.subscribed,
      new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS).unref()),
    ]);
  }
  return {
    async next(ms) {
      if (!heard) {
        const wait = bus && !bus.healthy() ? Math.min(ms, BUS_DOWN_READ_MS) : ms;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
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
    close() {
      const set = hub?.waiting.get(botId);
      set?.delete(onWord);
      if (set?.size === 0) hub?.waiting.delete(botId);
    },
  };
}
