import { bots, type Db, strategies, users } from '@gridbot/db';
import { and, count, eq, inArray, isNotNull, like, sql } from 'drizzle-orm';
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
