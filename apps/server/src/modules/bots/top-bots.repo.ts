import { botFills, bots, type Db, gridCopies, strategies, users } from '@gridbot/db';
import { and, count, eq, gte, inArray, isNotNull, like, sql, sum } from 'drizzle-orm';
import type { BotRow } from './bots.repo';

/**
 * The address domain of the demo install's accounts (demo, admin, sample trader). No member can hold it: sign-up
 * needs a code e-mailed to the address, and `.local` is never delivered.
 */
export const DEMO_EMAIL_DOMAIN = '@gridbot.local';

/** Which of these bots belong to a demo account, so Copy BOTs can mark them as sample data. */
export async function demoBotIds(db: Db, botIds: string[]): Promise<Set<string>> {
  if (botIds.length === 0) return new Set();
  const rows = await db
    .select({ id: bots.id })
    .from(bots)
    .innerJoin(users, eq(users.id, bots.userId))
    .where(and(inArray(bots.id, botIds), like(users.email, `%${DEMO_EMAIL_DOMAIN}`)));
  return new Set(rows.map((r) => r.id));
}

/**
 * How many members hold a copy of each bot's strategy: a copy is stored with the bot's strategy snapshot as its
 * parameters and a "· copy" name (copyBotStrategy), so it is counted without a column of its own.
 */
export async function copyCountsOf(db: Db, rows: BotRow[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const [hit] = await db
      .select({ n: count() })
      .from(strategies)
      .where(
        and(
          isNotNull(strategies.userId),
          like(strategies.name, '% · copy%'),
          sql`${strategies.params} = ${JSON.stringify(row.strategySnapshot)}::jsonb`,
        ),
      );
    counts.set(row.id, Number(hit?.n ?? 0));
  }
  return counts;
}

/** A member copied a range grid: counted once per member, however often they copy it. */
export async function recordGridCopy(db: Db, botId: string, userId: string): Promise<void> {
  await db.insert(gridCopies).values({ botId, userId }).onConflictDoNothing();
}

/** How many members copied each of these range grids. */
export async function gridCopyCountsOf(db: Db, botIds: string[]): Promise<Map<string, number>> {
  if (botIds.length === 0) return new Map();
  const rows = await db
    .select({ botId: gridCopies.botId, n: count() })
    .from(gridCopies)
    .where(inArray(gridCopies.botId, botIds))
    .groupBy(gridCopies.botId);
  return new Map(rows.map((r) => [r.botId, Number(r.n)]));
}

/**
 * What each of these bots booked on its fills (pnl: a matched pair's grid profit, funding) from `sinceMs` on: a
 * range grid's 7-day PnL, since its state keeps no profit by date.
 */
export async function bookedSince(db: Db, botIds: string[], sinceMs: number): Promise<Map<string, number>> {
  if (botIds.length === 0) return new Map();
  const rows = await db
    .select({ botId: botFills.botId, pnl: sum(botFills.pnl) })
    .from(botFills)
    .where(and(inArray(botFills.botId, botIds), gte(botFills.timeMs, sinceMs)))
    .groupBy(botFills.botId);
  return new Map(rows.map((r) => [r.botId, Number(r.pnl ?? 0)]));
}
