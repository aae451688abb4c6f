import { botCommands, botFills, botIntents, bots, type Db, type Tx } from '@gridbot/db';
import type { EngineState, Intent } from '@gridbot/engine';
import { money } from '@gridbot/shared';
import { and, asc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { BotWriteListener } from '../modules/bots';
import { queueForRunningGridBots } from '../modules/bots';
import { platformCredit } from '../modules/credit';
import type { DbWriteKind } from '../ops/metrics';
import { clientOrderIdOf } from './client-order-id';
import { faultPoint } from './fault-points';
import { GroupCommit } from './group-commit';

export type BotRow = typeof bots.$inferSelect;
export type IntentRow = typeof botIntents.$inferSelect;
export type CommandRow = typeof botCommands.$inferSelect;

/** What a fill writes beside the new state: the order-book row. */
export interface FillRecord {
  seq: number;
  side: 'buy' | 'sell';
  grid: number;
  price: string;
  qty: string;
  quote: string;
  /** In USDT. */
  fee: string;
  /**
   * The asset the exchange charged the fee in, and the amount it charged (docs/trading-rules.md §3); USDT and
   * `fee` when not given.
   */
  feeAsset?: string;
  feePaid?: string;
  pnl: string | null;
  timeMs: number;
}

const asJson = (state: EngineState) => state as unknown as Record<string, unknown>;

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

function groupByBot<T extends { botId: string }>(rows: readonly T[]): Map<string, T[]> {
  const byBot = new Map<string, T[]>();
  for (const row of rows) {
    const list = byBot.get(row.botId);
    if (list) list.push(row);
    else byBot.set(row.botId, [row]);
  }
  return byBot;
}

type BotStatus = BotRow['status'];

/** Whether the engine has stopped the bot (its orders may still be out). */
const engineStopped = (state: EngineState) => state.status === 'Stopped' || state.status === 'Completed';

/**
 * Whether the bot is on its way out but not done (docs/trading-rules.md §3 "A stopping bot is not done until its last order
 * is"): stopped with an order still pending, or asked to stop and sell with coins still to sell.
 */
export function isStopping(state: EngineState): boolean {
  if (state.pending.length > 0) return engineStopped(state);
  return state.exitRequest !== null && (state.lots.length > 0 || !engineStopped(state));
}

/**
 * A bot the runtime halted stays Pause whatever its engine says (a command it applies while halted, such as
 * an edit, writes its state): only resuming it, or stopping it, changes that. A stop the engine made wins,
 * so a halted bot whose final sell is out is Stopping, and is reconciled after a crash.
 */
const keepHalted = (state: EngineState, status: BotStatus) =>
  engineStopped(state)
    ? status
    : sql<BotStatus>`case when ${bots.haltReason} is null then ${status} else 'Pause' end`;

/** The `bots.status` the engine's state stands for. */
function statusOf(state: EngineState): BotStatus {
  if (isStopping(state)) return 'Stopping';
  if (engineStopped(state)) return 'Stopped';
  return state.status === 'Pause' ? 'Pause' : 'Live';
}

function stateColumns(state: EngineState, lastPrice: number | null) {
  const stopped = engineStopped(state);
  return {
    engineState: asJson(state),
    stateVersion: sql`${bots.stateVersion} + 1`,
    status: keepHalted(state, statusOf(state)),
    stopReason: state.stopReason,
    ...(stopped
      ? {
          stoppedAt: sql`coalesce(${bots.stoppedAt}, now())`,
          closedPrice: lastPrice === null ? null : String(lastPrice),
        }
      : {}),
  };
}

interface StateWithIntents {
  botId: string;
  state: EngineState;
  intents: readonly Intent[];
  lastPrice: number | null;
}

/** Rows of a raw statement (node-postgres and PGlite both answer `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** A bot's new state as one element of the JSON array the batched statements read. */
function stateRecord(botId: string, state: EngineState, lastPrice: number | null) {
  const stopped = engineStopped(state);
  const closed = lastPrice === null ? null : String(lastPrice);
  return { id: botId, state, status: statusOf(state), stop_reason: state.stopReason, stopped, closed };
}

/** One bot's state per id; the newest wins (a runner is serial, so there is at most one anyway). */
function newestStates(items: readonly { botId: string; state: EngineState; lastPrice: number | null }[]) {
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
    -- a halted bot stays Pause unless its engine stopped it (see keepHalted)
    status = case when b.halt_reason is null or s.stopped then s.status else 'Pause' end,
    stop_reason = s.stop_reason,
    stopped_at = case when s.stopped then coalesce(b.stopped_at, now()) else b.stopped_at end,
    closed_price = case when s.stopped then s.closed else b.closed_price end`;

const updateBotsFromStates = () => sql`
  update ${bots} as b set ${stateAssignments}
  from s where b.id = s.id`;

/**
 * As `updateBotsFromStates`, and adds the fills the statement inserted (CTE `ins`) to each bot's fill count,
 * and their pnl to its Profit Book and Loss Book. Only rows actually inserted count, so a fill written twice
 * counts once; and a row can be updated once per statement, hence one update for both.
 */
const updateBotsFromStatesAndFills = () => sql`
  update ${bots} as b set ${stateAssignments},
    profit_book = b.profit_book + coalesce(d.profit, 0),
    loss_book = b.loss_book + coalesce(d.loss, 0),
    fill_count = b.fill_count + coalesce(d.fills, 0)
  from s left join (
    select bot_id,
      sum(case when pnl > 0 then pnl else 0 end) as profit,
      sum(case when pnl < 0 then pnl else 0 end) as loss,
      count(*)::integer as fills
    from ins group by bot_id) as d on d.bot_id = s.id
  where b.id = s.id`;

/**
 * A stop and sell is done when the write that makes its bot Stopped commits (its sale filled and booked): in
 * the same statement, so a crash can neither end it early nor leave it waiting for ever.
 */
const endAppliedStops = () => sql`stops as (
      update ${botCommands} as c set status = 'done', done_at = now()
      from s where c.bot_id = s.id and s.status = 'Stopped' and c.status = 'applied')`;

function statesCte(states: unknown[]) {
  return sql`s as (
    select * from json_to_recordset(${JSON.stringify(states)}::json) as s(
      id uuid, state json, status text, stop_reason text, stopped boolean, closed numeric))`;
}

async function writeStatesWithIntents(db: Db, items: readonly StateWithIntents[]) {
  const intents = items.flatMap((item) =>
    item.intents.map((intent) => ({
      bot_id: item.botId,
      seq: intent.seq,
      client_order_id: clientOrderIdOf(item.botId, intent.seq),
      kind: intent.type,
      payload: intent,
    })),
  );
  await db.execute(sql`
    with ${statesCte(newestStates(items))},
    ${endAppliedStops()},
    i as (
      insert into ${botIntents} (bot_id, seq, client_order_id, kind, payload)
      select bot_id, seq, client_order_id, kind, payload
      from json_to_recordset(${JSON.stringify(intents)}::json)
        as x(bot_id uuid, seq integer, client_order_id text, kind text, payload jsonb)
      on conflict do nothing)
    ${updateBotsFromStates()}`);
}

/** Who hears of the runtime's writes; the supervisor wires them (each optional). */
export interface WriteHooks {
  /** Committed fills, states with intents and halts, for the push channel and notifications. */
  onBotsWritten?: BotWriteListener;
  /** Bots that got commands from the runtime itself (the profit limit): their runners apply them now. */
  onCommandsQueued?: (botIds: string[]) => void;
  /** How long each grouped write took (GET /metrics). */
  observe?: (kind: DbWriteKind, seconds: number) => void;
}

/**
 * The runtime's hot writes in one process: a group commit per kind of write, so bots that trade together share
 * statements, and the hooks that hear of them. The supervisor builds one (`createRuntimeWrites`) and hands it
 * to its runners; the functions below that go through a group commit or announce their writes take it
 * instead of the database.
 */
export interface RuntimeWrites {
  db: Db;
  hooks: WriteHooks;
  intents: GroupCommit<StateWithIntents>;
  states: GroupCommit<StateWithIntents>;
  fills: GroupCommit<FillWithState>;
}

export function createRuntimeWrites(db: Db, hooks: WriteHooks = {}): RuntimeWrites {
  const timed = <T>(kind: DbWriteKind, write: (items: readonly T[]) => Promise<void>, concurrency: number) =>
    new GroupCommit<T>(
      async (items) => {
        const started = performance.now();
        await write(items);
        hooks.observe?.(kind, (performance.now() - started) / 1000);
      },
      500,
      concurrency,
    );
  return {
    db,
    hooks,
    intents: timed<StateWithIntents>(
      'intents',
      async (items) => {
        await writeStatesWithIntents(db, items);
        announce(hooks, items, 'state');
      },
      4,
    ),
    // Its own group commit: flushes (hundreds a second at 5,000 bots) never lengthen the batches that intents
    // wait for before their orders go out.
    states: timed<StateWithIntents>('states', (items) => writeStatesWithIntents(db, items), 1),
    fills: timed<FillWithState>(
      'fills',
      async (items) => {
        await writeFills(db, items, hooks.onCommandsQueued);
        announce(hooks, items, 'fill');
      },
      4,
    ),
  };
}

/**
 * Writes the new state and its intents, before any of them is sent (docs/trading-rules.md §3). Bots that trade on the
 * same tick share a few statements written in parallel (group commit); the promise settles once this
 * bot's rows are committed.
 */
export async function saveStateWithIntents(
  writes: RuntimeWrites,
  botId: string,
  state: EngineState,
  intents: readonly Intent[],
  lastPrice: number,
) {
  const side = intents.some((intent) => intent.type === 'MarketBuy') ? 'buy' : 'sell';
  faultPoint('intent-write', { botId, side });
  await writes.intents.submit({ botId, state, intents, lastPrice });
  faultPoint('intent-written', { botId, side });
}

/**
 * A state that moved without an order (trailing, statistics), batched so flushing thousands of bots costs
 * a few statements instead of one each, in its own group commit. A runner awaits its flush, so a bot never
 * has a flush and an intent write in flight at once.
 */
export async function saveStateBatched(
  writes: RuntimeWrites,
  botId: string,
  state: EngineState,
  lastPrice: number | null,
) {
  await writes.states.submit({ botId, state, intents: [], lastPrice });
}

export async function saveState(db: Db | Tx, botId: string, state: EngineState, lastPrice: number | null) {
  if (statusOf(state) !== 'Stopped') {
    await db.update(bots).set(stateColumns(state, lastPrice)).where(eq(bots.id, botId));
    return;
  }
  await db.transaction(async (tx) => {
    await tx.update(bots).set(stateColumns(state, lastPrice)).where(eq(bots.id, botId));
    await endCommands(tx, botId, 'applied', 'done');
  });
}

/** Moves the bot's commands in `from` to `to` (with the error a failed one shows). */
async function endCommands(
  db: Db | Tx,
  botId: string,
  from: 'applied',
  to: 'done' | 'failed',
  error?: string,
) {
  await db
    .update(botCommands)
    .set({ status: to, error: error?.slice(0, 500) ?? null, doneAt: new Date() })
    .where(and(eq(botCommands.botId, botId), eq(botCommands.status, from)));
}

/**
 * A command applied, with the state it made, in one transaction. A stop and sell whose sale is still to come
 * is `applied`, not done: it is done when its sale is booked, or failed when the sale fails.
 */
export async function saveCommandApplied(
  { db, hooks: { onCommandsQueued } }: Pick<RuntimeWrites, 'db' | 'hooks'>,
  botId: string,
  commandId: number,
  state: EngineState,
  lastPrice: number | null,
  awaitsSale: boolean,
  /** Profit (or loss, < 0) the command booked without a sale (missing lots dropped), and whose bot it is. */
  booked?: { userId: string; pnl: string },
): Promise<void> {
  let notified: string[] = [];
  await db.transaction(async (tx) => {
    if (booked) {
      await bookPnl(tx, botId, booked.pnl);
      notified = await countAgainstProfitLimit(tx, [{ botId, ...booked }]);
    }
    await saveState(tx, botId, state, lastPrice);
    await tx
      .update(botCommands)
      .set(awaitsSale ? { status: 'applied' } : { status: 'done', doneAt: new Date() })
      .where(eq(botCommands.id, commandId));
  });
  if (notified.length > 0) onCommandsQueued?.(notified);
}

function announce(
  hooks: WriteHooks,
  items: readonly { botId: string; userId?: string; state: EngineState }[],
  change: 'fill' | 'state',
) {
  const listener = hooks.onBotsWritten;
  if (!listener || items.length === 0) return;
  const at = Date.now();
  listener(
    items.map((item) => ({
      botId: item.botId,
      userId: item.userId,
      change,
      status: statusOf(item.state),
      at,
    })),
  );
}

interface FillWithState {
  botId: string;
  userId: string;
  fill: FillRecord;
  state: EngineState;
  lastPrice: number;
}

async function writeFills(
  db: Db,
  items: readonly FillWithState[],
  onCommandsQueued: WriteHooks['onCommandsQueued'],
) {
  const fills = items.map(({ botId, userId, fill }) => ({
    bot_id: botId,
    user_id: userId,
    seq: fill.seq,
    side: fill.side,
    grid: fill.grid,
    price: fill.price,
    qty: fill.qty,
    quote: fill.quote,
    fee: fill.fee,
    fee_asset: fill.feeAsset ?? 'USDT',
    fee_paid: fill.feePaid ?? fill.fee,
    pnl: fill.pnl,
    time_ms: fill.timeMs,
    client_order_id: clientOrderIdOf(botId, fill.seq),
  }));
  // Fill rows, their intents' end, the bots' new states and books: one statement, so one transaction.
  const statement = sql`
    with ${statesCte(newestStates(items))},
    f as (
      select * from json_to_recordset(${JSON.stringify(fills)}::json) as f(
        bot_id uuid, user_id uuid, seq integer, side text, grid integer, price numeric, qty numeric,
        quote numeric, fee numeric, fee_asset text, fee_paid numeric, pnl numeric, time_ms bigint,
        client_order_id text)),
    ins as (
      insert into ${botFills}
        (bot_id, user_id, seq, side, grid, price, qty, quote, fee, fee_asset, fee_paid, pnl, time_ms,
         client_order_id)
      select bot_id, user_id, seq, side, grid, price, qty, quote, fee, fee_asset, fee_paid, pnl, time_ms,
        client_order_id from f
      on conflict do nothing
      returning bot_id, user_id, seq, pnl),
    done as (
      update ${botIntents} as i set status = 'filled', updated_at = now()
      from f where i.bot_id = f.bot_id and i.seq = f.seq),
    ${endAppliedStops()},
    upd as (${updateBotsFromStatesAndFills()})
    select bot_id as "botId", user_id as "userId", pnl::text as pnl from ins`;
  const booksProfit = items.some(({ fill }) => fill.pnl !== null && Number(fill.pnl) > 0);
  await executeBooking(db, statement, booksProfit, onCommandsQueued);
}

/** An Order Book row a statement inserted (not one it found already there). */
interface BookedRow {
  botId: string;
  userId: string;
  pnl: string | null;
}

/**
 * Runs a statement that inserts Order Book rows (fills, funding) and answers the rows it inserted. Profit
 * limit (docs/product.md §5): every booked profit, a sell's or funding received, lowers availableCredit in
 * the same transaction as its row, so a crash can neither count it twice nor lose it; a loss gives none back.
 * `mayBookProfit` false (no row has a positive pnl) skips the transaction. Bots that got commands from it hear
 * of them through `onCommandsQueued`.
 */
async function executeBooking(
  db: Db,
  statement: SQL,
  mayBookProfit: boolean,
  onCommandsQueued: WriteHooks['onCommandsQueued'],
): Promise<BookedRow[]> {
  if (!mayBookProfit) return rowsOf<BookedRow>(await db.execute(statement));
  let notified: string[] = [];
  const booked = await db.transaction(async (tx) => {
    const rows = rowsOf<BookedRow>(await tx.execute(statement));
    // A few statements for the whole batch (not a few per fill): the transaction stays short.
    notified = await countAgainstProfitLimit(tx, rows);
    return rows;
  });
  if (notified.length > 0) onCommandsQueued?.(notified);
  return booked;
}

/**
 * Profit limit (docs/product.md §5), in the transaction that books the profits: each positive `pnl` lowers its
 * user's availableCredit; a user whose credit it used up has every running grid bot told to open no new grid-1
 * cycle. Answers those bots, for `onCommandsQueued` once the transaction has committed.
 */
async function countAgainstProfitLimit(tx: Tx, booked: readonly BookedRow[]): Promise<string[]> {
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

/**
 * The fill, its intent's end and the bot's new state, in one transaction (docs/trading-rules.md §3); fills of many bots
 * that arrive together share it (group commit). Idempotent per seq.
 */
export async function saveFill(
  writes: RuntimeWrites,
  botId: string,
  userId: string,
  fill: FillRecord,
  state: EngineState,
  lastPrice: number,
) {
  faultPoint('order-filled', { botId, side: fill.side });
  await writes.fills.submit({ botId, userId, fill, state, lastPrice });
  faultPoint('fill-booked', { botId, side: fill.side });
}

/** A futures funding payment (docs/trading-rules.md §2.2) as its Order Book row. */
export interface FundingRecord {
  /** The funding time it belongs to (the feed's clock): a bot books each funding time once. */
  fundingTimeMs: number;
  /** When it was booked (the runtime's clock, like fills). */
  timeMs: number;
  price: number;
  qty: number;
  /** Received (> 0) or paid (< 0), USDT. */
  amount: number;
}

/**
 * The funding row and the bot's state that books it, in one statement (docs/trading-rules.md §3 "one transaction
 * per fill"). Answers false, writing nothing, when the bot already booked this funding time.
 */
export async function saveFunding(
  writes: RuntimeWrites,
  botId: string,
  userId: string,
  funding: FundingRecord,
  state: EngineState,
  lastPrice: number,
): Promise<boolean> {
  const row = {
    bot_id: botId,
    user_id: userId,
    price: String(funding.price),
    qty: String(funding.qty),
    quote: money(funding.qty).times(funding.price).toFixed(),
    pnl: money(funding.amount).toFixed(),
    time_ms: funding.timeMs,
    client_order_id: `funding-${funding.fundingTimeMs}`,
  };
  const statement = sql`
    with ${statesCte(newestStates([{ botId, state, lastPrice }]))},
    f as (
      select * from json_to_recordset(${JSON.stringify([row])}::json) as f(
        bot_id uuid, user_id uuid, price numeric, qty numeric, quote numeric, pnl numeric, time_ms bigint,
        client_order_id text)),
    ins as (
      insert into ${botFills}
        (bot_id, user_id, seq, side, grid, price, qty, quote, fee, pnl, time_ms, client_order_id)
      select bot_id, user_id, null, 'FUNDING', 0, price, qty, quote, 0, pnl, time_ms, client_order_id from f
      on conflict do nothing
      returning bot_id, user_id, seq, pnl),
    upd as (${updateBotsFromStatesAndFills()} and exists (select 1 from ins))
    select bot_id as "botId", user_id as "userId", pnl::text as pnl from ins`;
  const { db, hooks } = writes;
  const booked = (await executeBooking(db, statement, funding.amount > 0, hooks.onCommandsQueued)).length > 0;
  if (booked) announce(hooks, [{ botId, userId, state }], 'fill');
  return booked;
}

/** The amount the bot booked for a funding time (its Order Book row's PnL), undefined when it booked none. */
export async function bookedFunding(
  db: Db,
  botId: string,
  fundingTimeMs: number,
): Promise<string | undefined> {
  const [row] = await db
    .select({ pnl: botFills.pnl })
    .from(botFills)
    .where(
      and(
        eq(botFills.botId, botId),
        eq(botFills.side, 'FUNDING'),
        eq(botFills.clientOrderId, `funding-${fundingTimeMs}`),
      ),
    );
  return row?.pnl ? money(row.pnl).toFixed() : undefined;
}

/**
 * Paper futures: the bot has settled its funding through `timeMs` (docs/trading-rules.md §2.2). It never
 * moves back: a second worker behind, or a replay started again, leaves it where it is.
 */
export async function saveFundedThrough(db: Db, botId: string, timeMs: number): Promise<void> {
  await db
    .update(bots)
    .set({ fundedThroughMs: sql`greatest(coalesce(${bots.fundedThroughMs}, ${timeMs}), ${timeMs})` })
    .where(eq(bots.id, botId));
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
) {
  await db.transaction(async (tx) => {
    const [failed] = await tx
      .update(botIntents)
      .set({ status: 'failed', lastError: error.slice(0, 500), updatedAt: new Date() })
      .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)))
      .returning({ kind: botIntents.kind });
    await saveState(tx, botId, state, lastPrice);
    if (failed?.kind === 'SellLots') await endCommands(tx, botId, 'applied', 'failed', error);
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
) {
  await db.transaction(async (tx) => {
    await tx
      .update(botIntents)
      .set({ status: 'failed', lastError: reason.slice(0, 500), updatedAt: new Date() })
      .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)));
    await bookPnl(tx, botId, pnl);
    await saveState(tx, botId, state, lastPrice);
  });
}

/** Adds profit booked without a fill (dust, dropped lots) to the bot's profit or loss book. */
async function bookPnl(tx: Parameters<Parameters<Db['transaction']>[0]>[0], botId: string, pnl: string) {
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

/** Sent, outcome unknown (timeout, no answer): reconciliation asks the exchange later. */
export async function markIntentUnknown(db: Db, botId: string, seq: number, error: string) {
  await db
    .update(botIntents)
    .set({
      status: 'unknown',
      attempts: sql`${botIntents.attempts} + 1`,
      lastError: error.slice(0, 500),
      updatedAt: new Date(),
    })
    .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)));
}

/**
 * Stops trading a bot with a reason the user sees on its page; its state stays as it is, and a stop and sell
 * waiting for its sale fails with that reason. A bot whose final order is out stays Stopping: the order is
 * reconciled again when the bot is next loaded (docs/trading-rules.md §3).
 */
export async function haltBot(writes: RuntimeWrites, botId: string, reason: string) {
  await writes.db.transaction(async (tx) => {
    await tx
      .update(bots)
      .set({
        haltReason: reason.slice(0, 300),
        status: sql`case when ${bots.status} = 'Stopping' and json_array_length(${bots.engineState} -> 'pending') > 0
          then 'Stopping' else 'Pause' end`,
      })
      .where(eq(bots.id, botId));
    await endCommands(tx, botId, 'applied', 'failed', reason);
  });
  writes.hooks.onBotsWritten?.([{ botId, change: 'state', status: 'Pause', at: Date.now() }]);
}

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

/** The re-buy a resume chose is booked: its applied `missing_lots` command is done. */
export async function finishAppliedMissingLots(db: Db, botId: string) {
  await db
    .update(botCommands)
    .set({ status: 'done', doneAt: new Date() })
    .where(
      and(
        eq(botCommands.botId, botId),
        eq(botCommands.type, 'missing_lots'),
        eq(botCommands.status, 'applied'),
      ),
    );
}

export async function finishCommand(db: Db | Tx, id: number, error?: string) {
  await db
    .update(botCommands)
    .set({ status: error ? 'failed' : 'done', error: error ?? null, doneAt: new Date() })
    .where(eq(botCommands.id, id));
}
