import type { bots } from '@gridbot/db';

/** A committed write of a bot's fill or of a state with orders (status, pause, stop), for the push channel. */
export interface BotWritten {
  botId: string;
  userId?: string;
  change: 'fill' | 'state';
  status: (typeof bots.$inferSelect)['status'];
  /** When the write committed (ms since the epoch): pages measure how late they show it. */
  at: number;
}

/**
 * Hears of each commit of fills, of states with intents, and of halts. The worker writes, notifications
 * listen: the role hands the listener to the supervisor (`SupervisorDeps.onBotsWritten`), so neither imports
 * the other (docs/architecture.md §2).
 */
export type BotWriteListener = (writes: BotWritten[]) => void;
