import { botIntents, type Db } from '@gridbot/db';
import type { EngineState, Intent, RangeIntent } from '@gridbot/engine';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { clientOrderIdOf } from '../modules/bots';
import {
  bookPnl,
  endAppliedStops,
  newestStates,
  type StateWithIntents,
  saveState,
  statesCte,
  updateBotsFromStates,
} from './bot-state.repo';
import { endCommands } from './commands.repo';
import { type Fence, FencedError } from './lease-fence';
import { statementFence } from './leases.repo';
import { groupByBot, rowsOf } from './rows';

export type IntentRow = typeof botIntents.$inferSelect;

/** Unfinished intents of many bots in one query, in sequence order per bot (a batch of launches). */
export async function openIntentsOf(db: Db, botIds: readonly string[]): Promise<Map<string, IntentRow[]>> {
  if (botIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(botIntents)
    .where(and(inArray(botIntents.botId, [...botIds]), inArray(botIntents.status, ['pending', 'unknown'])))
    .orderBy(asc(botIntents.seq));
  return groupByBot(rows);
}

/**
 * The bots' new states and their intents (none for a flush), in one statement; with `fences` (leased mode) the
 * statement checks them itself and writes nothing, refused with `FencedError`, when one is stale.
 */
export async function writeStatesWithIntents(
  db: Db,
  items: readonly StateWithIntents[],
  now: Date,
  fences: readonly Fence[] = [],
) {
  const fence = statementFence(fences);
  const [answer] = rowsOf<{ stale: string[] }>(
    await db.execute(sql`
      with ${fence.ctes}
      ${statesCte(newestStates(items), now, fence.gate)},
      ${endAppliedStops()},
      ${insertIntentsCte(items, fence.gate)},
      updated as (${updateBotsFromStates()})
      select ${fence.stale} as stale`),
  );
  if (answer && answer.stale.length > 0) throw new FencedError(answer.stale);
}

/**
 * The part of a batched statement that inserts the items' intents, each with its deterministic client order
 * id (docs/trading-rules.md §3), once: a CTE named `i`.
 */
export function insertIntentsCte(
  items: readonly { botId: string; intents?: readonly (Intent | RangeIntent)[] }[],
  gate = sql``,
): SQL {
  const intents = items.flatMap((item) =>
    (item.intents ?? []).map((intent) => ({
      bot_id: item.botId,
      seq: intent.seq,
      client_order_id: clientOrderIdOf(item.botId, intent.seq),
      kind: intent.type,
      payload: intent,
    })),
  );
  return sql`i as (
      insert into ${botIntents} (bot_id, seq, client_order_id, kind, payload)
      select bot_id, seq, client_order_id, kind, payload
      from json_to_recordset(${JSON.stringify(intents)}::json)
        as x(bot_id uuid, seq integer, client_order_id text, kind text, payload jsonb) ${gate}
      on conflict do nothing)`;
}

/**
 * An intent that ended with nothing filled, and the state that forgot it. A failed sell fails the stop and
 * sell waiting for it, with the exchange's reason: the user is never told it sold.
 */
export async function saveIntentFailed(
  db: Db,
  botId: string,
  seq: number,
  error: string,
  state: EngineState,
  lastPrice: number | null,
  /** The runtime's clock (`BotRunnerDeps.now`), as in every write of this file. */
  now: Date,
) {
  await db.transaction(async (tx) => {
    const [failed] = await tx
      .update(botIntents)
      .set({ status: 'failed', lastError: error.slice(0, 500), updatedAt: now })
      .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)))
      .returning({ kind: botIntents.kind });
    await saveState(tx, botId, state, lastPrice, now);
    if (failed?.kind === 'SellLots') await endCommands(tx, botId, 'applied', 'failed', now, error);
  });
}

/**
 * A sell that could not go out (below the exchange's minimum) and whose lots the bot left as dust
 * (docs/trading-rules.md §3): the intent ends without an order, the bot's state records the dust, and the
 * profit or loss of the lots left at their price joins the bot's Profit Book or Loss Book. A stop and sell
 * waiting for it is done with the state that makes the bot Stopped.
 */
export async function saveIntentDust(
  db: Db,
  botId: string,
  seq: number,
  reason: string,
  state: EngineState,
  lastPrice: number | null,
  pnl: string,
  now: Date,
) {
  await db.transaction(async (tx) => {
    await tx
      .update(botIntents)
      .set({ status: 'failed', lastError: reason.slice(0, 500), updatedAt: now })
      .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)));
    await bookPnl(tx, botId, pnl);
    await saveState(tx, botId, state, lastPrice, now);
  });
}

/**
 * About to be sent again (the exchange confirmed it has no such order): `pending` again, "maybe sent", so a
 * worker that loads the bot while the call is under way counts the order as possibly arriving from its load,
 * not from the row's last `unknown` (docs/trading-rules.md §3).
 */
export async function markIntentResending(db: Db, botId: string, seq: number, now: Date) {
  await db
    .update(botIntents)
    .set({ status: 'pending', updatedAt: now })
    .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)));
}

/**
 * Outcome unknown (timeout, no answer): reconciliation asks the exchange later. `updatedAt` is the end of the
 * last order call, so no earlier than the order's own timestamp: `callEndedAt` after an order call, none
 * after a failed look-up, which sends no order and so leaves the time its order may still arrive where it was.
 */
export async function markIntentUnknown(
  db: Db,
  botId: string,
  seq: number,
  error: string,
  callEndedAt: Date | undefined,
) {
  await db
    .update(botIntents)
    .set({
      status: 'unknown',
      attempts: sql`${botIntents.attempts} + 1`,
      lastError: error.slice(0, 500),
      ...(callEndedAt ? { updatedAt: callEndedAt } : {}),
    })
    .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)));
}

/**
 * An intent found in doubt while `pending` (a call may have been under way when its worker stopped):
 * `unknown`, its call ended by `now` at the latest. Written before the first look-up, so that a worker stopped
 * again before the window has passed leaves it where this one found it: counted from each load instead, a
 * worker restarted more often than the window never sends the order again (docs/trading-rules.md §3).
 */
export async function markIntentInDoubt(db: Db, botId: string, seq: number, now: Date) {
  await db
    .update(botIntents)
    .set({ status: 'unknown', lastError: 'under way when its worker stopped', updatedAt: now })
    .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq), eq(botIntents.status, 'pending')));
}

/**
 * When the intent's last order call ended, at the latest: a `pending` row is marked in doubt from `now` first
 * (`markIntentInDoubt`), an `unknown` one keeps its `updatedAt`.
 */
export async function intentInDoubtSince(db: Db, botId: string, seq: number, now: Date): Promise<number> {
  await markIntentInDoubt(db, botId, seq, now);
  const [row] = await db
    .select({ updatedAt: botIntents.updatedAt })
    .from(botIntents)
    .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)));
  return row?.updatedAt.getTime() ?? now.getTime();
}
