import type { NotificationItem } from '@gridbot/shared';
import { type Bus, channels } from './bus';

/**
 * What happened to a user's own things, for the pages they have open (push channel). `userId` may be
 * missing on bot changes written by batched statements that do not carry it; the API process that routes
 * the event looks the bot's owner up.
 */
export type UserEvent =
  | {
      kind: 'bot';
      botId: string;
      userId?: string;
      change: 'fill' | 'state';
      status?: 'Live' | 'Pause' | 'Stopping' | 'Stopped';
      /** When the change committed, ms since the epoch. */
      at?: number;
    }
  | { kind: 'notification'; userId: string; item: NotificationItem };

/** Best effort, like every bus message: the pages also poll, so a lost event only waits for the poll. */
export async function publishUserEvents(bus: Bus, events: readonly UserEvent[]): Promise<void> {
  if (events.length === 0) return;
  await bus.publish(channels.userEvents, JSON.stringify(events));
}

export function subscribeUserEvents(bus: Bus, handler: (events: UserEvent[]) => void) {
  return bus.subscribe(channels.userEvents, (message) => handler(JSON.parse(message) as UserEvent[]));
}
