import type { BotControl } from '../app/deps';
import { type Bus, channels } from './bus';

/**
 * What the API tells the workers about bots. `add`: a bot was created or resumed (claim it); `notify`:
 * commands were queued (its owner applies them); `wake`: leases were handed back (claim now).
 */
export type BotEvent = { type: 'add' | 'notify'; botId: string } | { type: 'wake' };

/** Best effort: a lost event only delays the worker until it polls the database. */
export async function publishBotEvent(bus: Bus, event: BotEvent): Promise<void> {
  await bus.publish(channels.bots, JSON.stringify(event));
}

export function subscribeBotEvents(bus: Bus, handler: (event: BotEvent) => void) {
  return bus.subscribe(channels.bots, (message) => handler(JSON.parse(message) as BotEvent));
}

/**
 * How the API hands bots and their commands to the runtime. A command always travels as an event on the bus and
 * is answered at once: one process (ROLE=all) uses its in-process bus, split roles Redis, and the worker that
 * owns the bot reads the database and says on the bus when commands are settled (bus/command-results.ts).
 * A new bot: with `launchHere` (one process, which runs every bot itself) it is launched before the start
 * answers, so the answer finds it running; otherwise `beforeAdd` writes what a worker needs to claim it (its
 * lease row) and an `add` event wakes the workers.
 */
export function botControlOver(
  bus: Bus,
  options: {
    beforeAdd?: (botId: string) => Promise<void>;
    launchHere?: (botId: string) => Promise<void>;
  } = {},
): BotControl {
  return {
    add: async (botId) => {
      if (options.launchHere) return options.launchHere(botId);
      await options.beforeAdd?.(botId);
      await publishBotEvent(bus, { type: 'add', botId });
    },
    notify: async (botId) => {
      await publishBotEvent(bus, { type: 'notify', botId });
    },
  };
}

/** What takes the bot events in a process that runs bots: the supervisor, or the lease coordinator. */
export interface BotEventTarget {
  add(botId: string): Promise<unknown>;
  notify(botId: string): Promise<unknown>;
  /** Leases were handed back: claim now (split roles only). */
  wake?(): void;
}

/** Hands each bot event to `target`; a failure is logged, never thrown into the bus. Answers the unsubscribe. */
export function serveBotEvents(
  bus: Bus,
  target: BotEventTarget,
  log: (message: string, extra?: Record<string, unknown>) => void,
): Promise<() => Promise<void>> {
  return subscribeBotEvents(bus, (event) => {
    const handled =
      event.type === 'add'
        ? target.add(event.botId)
        : event.type === 'notify'
          ? target.notify(event.botId)
          : Promise.resolve(target.wake?.());
    handled.catch((error: unknown) => log('bot event failed', { event, err: String(error) }));
  });
}
