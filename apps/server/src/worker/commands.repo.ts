import { botCommands, type Db, type Tx } from '@gridbot/db';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { groupByBot } from './rows';

export type CommandRow = typeof botCommands.$inferSelect;

export async function queuedCommands(db: Db, botId: string): Promise<CommandRow[]> {
  return (await queuedCommandsOf(db, [botId])).get(botId) ?? [];
}

/** Queued commands of many bots in one query, oldest first per bot. */
export async function queuedCommandsOf(
  db: Db,
  botIds: readonly string[],
): Promise<Map<string, CommandRow[]>> {
  if (botIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(botCommands)
    .where(and(inArray(botCommands.botId, [...botIds]), eq(botCommands.status, 'queued')))
    .orderBy(asc(botCommands.id));
  return groupByBot(rows);
}

/** Bots with a command still queued: at a start, those no launch took (halted, or not yet running). */
export async function botIdsWithQueuedCommands(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ botId: botCommands.botId })
    .from(botCommands)
    .where(eq(botCommands.status, 'queued'));
  return rows.map((row) => row.botId);
}

// `now` in each write below is the runtime's injected clock (`BotRunnerDeps.now`): when the command ended.

/** Moves the bot's commands in `from` to `to` (with the error a failed one shows). */
export async function endCommands(
  db: Db | Tx,
  botId: string,
  from: 'applied',
  to: 'done' | 'failed',
  now: Date,
  error?: string,
) {
  await db
    .update(botCommands)
    .set({ status: to, error: error?.slice(0, 500) ?? null, doneAt: now })
    .where(and(eq(botCommands.botId, botId), eq(botCommands.status, from)));
}

/** A command applied: done, or `applied` while the sale (or re-buy) it waits for is still to come. */
export async function markCommandApplied(tx: Db | Tx, commandId: number, awaitsSale: boolean, now: Date) {
  await tx
    .update(botCommands)
    .set(awaitsSale ? { status: 'applied' } : { status: 'done', doneAt: now })
    .where(eq(botCommands.id, commandId));
}

/** The re-buy a resume chose is booked: its applied `missing_lots` command is done. */
export async function finishAppliedMissingLots(db: Db, botId: string, now: Date) {
  await db
    .update(botCommands)
    .set({ status: 'done', doneAt: now })
    .where(
      and(
        eq(botCommands.botId, botId),
        eq(botCommands.type, 'missing_lots'),
        eq(botCommands.status, 'applied'),
      ),
    );
}

export async function finishCommand(db: Db | Tx, id: number, now: Date, error?: string) {
  await db
    .update(botCommands)
    .set({ status: error ? 'failed' : 'done', error: error ?? null, doneAt: now })
    .where(eq(botCommands.id, id));
}
