import { botIntents, type Db } from '@gridbot/db';
import { and, eq, inArray } from 'drizzle-orm';

/**
 * A range grid's cancel carried out (docs/trading-rules.md §2.6): the cancel's own row is done and the limit
 * order it took off the book ends as failed, "cancelled", unless its fill was booked first.
 */
export async function endCancelled(db: Db, botId: string, cancelSeq: number, orderSeq: number, now: Date) {
  await db.transaction(async (tx) => {
    await tx
      .update(botIntents)
      .set({ status: 'done', updatedAt: now })
      .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, cancelSeq)));
    await tx
      .update(botIntents)
      .set({ status: 'failed', lastError: 'cancelled', updatedAt: now })
      .where(
        and(
          eq(botIntents.botId, botId),
          eq(botIntents.seq, orderSeq),
          inArray(botIntents.status, ['pending', 'unknown']),
        ),
      );
  });
}

/** A range grid's intent that ended without an order (refused by the exchange), with the exchange's reason. */
export async function endIntentFailed(db: Db, botId: string, seq: number, error: string, now: Date) {
  await db
    .update(botIntents)
    .set({ status: 'failed', lastError: error.slice(0, 500), updatedAt: now })
    .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)));
}

/** The range grid's cancels written and not yet carried out (a crash between the write and the exchange). */
export async function openCancels(db: Db, botId: string): Promise<{ seq: number; orderSeq: number }[]> {
  const rows = await db
    .select({ seq: botIntents.seq, payload: botIntents.payload })
    .from(botIntents)
    .where(
      and(
        eq(botIntents.botId, botId),
        eq(botIntents.kind, 'CancelOrder'),
        inArray(botIntents.status, ['pending', 'unknown']),
      ),
    );
  return rows.map((r) => ({ seq: r.seq, orderSeq: Number(r.payload.orderSeq) }));
}

/** A range grid's resting order that ended with a part of it filled and booked (the rest rests again). */
export async function endIntentFilled(db: Db, botId: string, seq: number, now: Date) {
  await db
    .update(botIntents)
    .set({ status: 'filled', updatedAt: now })
    .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)));
}
