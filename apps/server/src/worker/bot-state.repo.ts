import { botCommands, bots, type Db, type Tx } from '@gridbot/db';
import type { Intent, RangeIntent } from '@gridbot/engine';
import { money } from '@gridbot/shared';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { engineStopped, type RuntimeState, statusOf } from './bot-status';
import { endCommands, markCommandApplied } from './commands.repo';
import { countAgainstProfitLimit } from './profit-limit';

export type BotRow = typeof bots.$inferSelect;

/**
 * Bots the runtime must run (all, or of `botIds`): Live or Pause and not halted by the runtime itself, and
 * every Stopping bot, halted or not: its final orders are settled like a running bot's (docs/trading-rules.md §3).
 */
export async function loadActiveBots(db: Db, botIds?: readonly string[]): Promise<BotRow[]> {
  if (botIds?.length === 0) return [];
  return db
    .select()
    .from(bots)
    .where(
      and(
        or(
          and(inArray(bots.status, ['Live', 'Pause']), isNull(bots.haltReason)),
          eq(bots.status, 'Stopping'),
        ),
        botIds === undefined ? undefined : inArray(bots.id, [...botIds]),
      ),
    );
}

/** The bot's row, whatever its status (a command for a bot this process does not run). */
export async function findBot(db: Db, botId: string): Promise<BotRow | undefined> {
  const [row] = await db.select().from(bots).where(eq(bots.id, botId)).limit(1);
  return row;
}

/** The user's Live and Pause bots and cycles that the runtime has not halted. */
export async function unhaltedBotIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: bots.id })
    .from(bots)
    .where(and(eq(bots.userId, userId), inArray(bots.status, ['Live', 'Pause']), isNull(bots.haltReason)));
  return rows.map((row) => row.id);
}

export interface StateWithIntents {
  botId: string;
  state: RuntimeState;
  intents: readonly (Intent | RangeIntent)[];
  lastPrice: number | null;
}

/** A bot's new state as one element of the JSON array the batched statements read. */
function stateRecord(botId: string, state: RuntimeState, lastPrice: number | null) {
  const stopped = engineStopped(state);
  const closed = lastPrice === null ? null : String(lastPrice);
  return { id: botId, state, status: statusOf(state), stop_reason: state.stopReason, stopped, closed };
}

/** One bot's state per id; the newest wins (a runner is serial, so there is at most one anyway). */
export function newestStates(
  items: readonly { botId: string; state: RuntimeState; lastPrice: number | null }[],
) {
  const byBot = new Map(items.map((item) => [item.botId, item]));
  return [...byBot.values()].map((item) => stateRecord(item.botId, item.state, item.lastPrice));
}

// The hot writes of a tick are single statements over a JSON array (json_to_recordset): one round trip
// and one parameter however many bots trade, atomic without BEGIN/COMMIT, and cheap to build. `json`, not
// `jsonb`: PostgreSQL only checks json's text, where jsonb builds a tree of the whole array first (for a wave of
// 400 bots, 28 ms against 3), and the states go into `engine_state` (a json column) as they are.
const stateAssignments = sql`
    engine_state = s.state,
    state_version = b.state_version + 1,
    -- A bot the runtime halted stays Pause whatever its engine says (a command it applies while halted, such
    -- as an edit, writes its state): only resuming it, or stopping it, changes that. A stop the engine made
    -- wins, so a halted bot whose final sell is out is Stopping, and is reconciled after a crash.
    status = case when b.halt_reason is null or s.stopped then s.status else 'Pause' end,
    stop_reason = s.stop_reason,
    stopped_at = case when s.stopped then coalesce(b.stopped_at, s.at) else b.stopped_at end,
    closed_price = case when s.stopped then s.closed else b.closed_price end`;

export const updateBotsFromStates = () => sql`
  update ${bots} as b set ${stateAssignments}
  from s where b.id = s.id`;

/**
 * As `updateBotsFromStates`, and adds the fills the statement inserted (CTE `ins`, whose `fill` is false for a
 * row already counted: grown by a part, or priced) to each bot's fill count, and their pnl to its Profit Book
 * and Loss Book. Only rows actually written count, so a fill written twice counts once; and a row can be
 * updated once per statement, hence one update for both.
 */
export const updateBotsFromStatesAndFills = () => sql`
  update ${bots} as b set ${stateAssignments},
    profit_book = b.profit_book + coalesce(d.profit, 0),
    loss_book = b.loss_book + coalesce(d.loss, 0),
    fill_count = b.fill_count + coalesce(d.fills, 0)
  from s left join (
    select bot_id,
      sum(case when pnl > 0 then pnl else 0 end) as profit,
      sum(case when pnl < 0 then pnl else 0 end) as loss,
      count(*) filter (where fill)::integer as fills
    from ins group by bot_id) as d on d.bot_id = s.id
  where b.id = s.id`;

/**
 * A stop and sell is done when the write that makes its bot Stopped commits (its sale filled and booked): in
 * the same statement, so a crash can neither end it early nor leave it waiting for ever. The one place this
 * rule is written: every write of a bot's state (batched or `saveState`) runs it.
 */
export const endAppliedStops = () => sql`stops as (
      update ${botCommands} as c set status = 'done', done_at = s.at
      from s where c.bot_id = s.id and s.status = 'Stopped' and c.status = 'applied')`;

/** The bots' new states, each with `at`: when they were written, by the runtime's clock (`BotRunnerDeps.now`). */
export function statesCte(states: unknown[], now: Date, gate = sql``) {
  return sql`s as (
    select *, ${now.toISOString()}::timestamptz as at from json_to_recordset(${JSON.stringify(states)}::json) as s(
      id uuid, state json, status text, stop_reason text, stopped boolean, closed numeric) ${gate})`;
}

/**
 * One bot's new state, written as the batched writes write theirs (`writeStatesWithIntents`): the same
 * assignments, and a stop and sell waiting for the bot is done once it is Stopped (`endAppliedStops`).
 */
export async function saveState(
  db: Db | Tx,
  botId: string,
  state: RuntimeState,
  lastPrice: number | null,
  now: Date,
) {
  await db.execute(sql`
    with ${statesCte([stateRecord(botId, state, lastPrice)], now)},
    ${endAppliedStops()}
    ${updateBotsFromStates()}`);
}

/** Adds profit booked without a fill (dust, dropped lots) to the bot's profit or loss book. */
export async function bookPnl(
  tx: Parameters<Parameters<Db['transaction']>[0]>[0],
  botId: string,
  pnl: string,
) {
  const gain = money(pnl);
  await tx
    .update(bots)
    .set(
      gain.isNegative()
        ? { lossBook: sql`${bots.lossBook} + ${gain.toFixed()}` }
        : { profitBook: sql`${bots.profitBook} + ${gain.toFixed()}` },
    )
    .where(eq(bots.id, botId));
}

/**
 * A command applied, with the state it made, in one transaction. A stop and sell whose sale is still to come
 * is `applied`, not done: it is done when its sale is booked, or failed when the sale fails. Answers the bots
 * that got commands from the profit limit, for `onCommandsQueued` once the transaction has committed.
 */
export async function writeCommandApplied(
  db: Db,
  botId: string,
  commandId: number,
  state: RuntimeState,
  lastPrice: number | null,
  awaitsSale: boolean,
  /** When it was applied, by the runtime's clock. */
  now: Date,
  /** Profit (or loss, < 0) the command booked without a sale (missing lots dropped), and whose bot it is. */
  booked?: { userId: string; pnl: string },
): Promise<string[]> {
  let notified: string[] = [];
  await db.transaction(async (tx) => {
    if (booked) {
      await bookPnl(tx, botId, booked.pnl);
      notified = await countAgainstProfitLimit(tx, [{ botId, ...booked }]);
    }
    await saveState(tx, botId, state, lastPrice, now);
    await markCommandApplied(tx, commandId, awaitsSale, now);
  });
  return notified;
}

/**
 * Stops trading a bot with a reason the user sees on its page; its state stays as it is, and a stop and sell
 * waiting for its sale fails with that reason. A bot whose final order is out stays Stopping: the order is
 * reconciled again when the bot is next loaded (docs/trading-rules.md §3).
 */
export async function writeHalt(db: Db, botId: string, reason: string, now: Date) {
  await db.transaction(async (tx) => {
    await tx
      .update(bots)
      .set({
        haltReason: reason.slice(0, 300),
        // A grid bot's pending orders are an array; a range grid's market order in flight an object (or null).
        status: sql`case when ${bots.status} = 'Stopping' and (case json_typeof(${bots.engineState} -> 'pending')
            when 'array' then json_array_length(${bots.engineState} -> 'pending') > 0
            when 'object' then true else false end)
          then 'Stopping' else 'Pause' end`,
      })
      .where(eq(bots.id, botId));
    await endCommands(tx, botId, 'applied', 'failed', now, reason);
  });
}
