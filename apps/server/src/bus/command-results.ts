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

/**
 * Requests waiting for words about their bots: one subscription to the bus per process, made at the first
 * wait and shared by every waiting request. The role builds one (`ProcessState.commandResults`).
 */
export class CommandResults {
  private readonly waiting = new Map<string, Set<() => void>>();
  private subscribed: Promise<unknown> | undefined;

  /** `bus`: where the workers' words arrive (`AppDeps.userEvents`); none, and waits only time out. */
  constructor(private readonly bus: Bus | undefined) {}

  /** Listens for words about one bot; without a bus, `next` only waits out its time. */
  async settlements(botId: string): Promise<CommandSettlements> {
    const { bus, waiting } = this;
    let heard = false;
    let wake: (() => void) | undefined;
    const onWord = () => {
      heard = true;
      wake?.();
    };
    if (bus) {
      this.subscribed ??= bus
        .subscribe(channels.commands, (word) => {
          for (const wakeOne of waiting.get(word) ?? []) wakeOne();
        })
        .catch(() => undefined);
      const set = waiting.get(botId) ?? new Set();
      set.add(onWord);
      waiting.set(botId, set);
      await Promise.race([
        this.subscribed,
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
        const set = waiting.get(botId);
        set?.delete(onWord);
        if (set?.size === 0) waiting.delete(botId);
      },
    };
  }
}
