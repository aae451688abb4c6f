import type { bots, Db } from '@gridbot/db';

/** A committed write of a bot's fill or of a state with orders (status, pause, stop), for the push channel. */
export interface BotWritten {
  botId: string;
  userId?: string;
  change: 'fill' | 'state';
  status: (typeof bots.$inferSelect)['status'];
  /** When the write committed (ms since the epoch): pages measure how late they show it. */
  at: number;
}

const writeListeners = new WeakMap<Db, (writes: BotWritten[]) => void>();

/**
 * Calls `listener` after each commit of fills, of states with intents, and of halts on `db`. The worker writes,
 * notifications listen: both reach it here, so neither imports the other (docs/architecture.md §2).
 */
export function onBotsWritten(db: Db, listener: (writes: BotWritten[]) => void) {
  writeListeners.set(db, listener);
}

/** The listener of `db`, if one is registered. */
export function writeListenerOf(db: Db): ((writes: BotWritten[]) => void) | undefined {
  return writeListeners.get(db);
}
