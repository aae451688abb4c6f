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
