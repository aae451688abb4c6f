import type { Tx } from '@gridbot/db';
import { queueForRunningGridBots } from '../modules/bots';
import { platformCredit } from '../modules/credit';

/** An Order Book row a statement inserted (not one it found already there). */
export interface BookedRow {
  botId: string;
  userId: string;
  pnl: string | null;
}

/**
 * Profit limit (docs/product.md §5), in the transaction that books the profits: each positive `pnl` lowers its
 * user's availableCredit; a user whose credit it used up has every running grid bot told to open no new grid-1
 * cycle. Answers those bots, for `onCommandsQueued` once the transaction has committed.
 */
export async function countAgainstProfitLimit(tx: Tx, booked: readonly BookedRow[]): Promise<string[]> {
  const exhausted = await platformCredit.onProfitsBooked(
    tx,
    booked.map(({ botId, userId, pnl }) => ({ userId, profit: pnl, refId: botId })),
  );
  const notified: string[] = [];
  for (const userId of exhausted) {
    notified.push(...(await queueForRunningGridBots(tx, userId, 'new_cycles', { allowed: false })));
  }
  return notified;
}
