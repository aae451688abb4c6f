import { botFills, botIntents, type Db } from '@gridbot/db';
import type { Intent, RangeIntent } from '@gridbot/engine';
import { type SQL, sql } from 'drizzle-orm';
import { clientOrderIdOf } from '../modules/bots';
import { endAppliedStops, newestStates, statesCte, updateBotsFromStatesAndFills } from './bot-state.repo';
import type { RuntimeState } from './bot-status';
import { insertIntentsCte } from './intents.repo';
import { type Fence, FencedError } from './lease-fence';
import { statementFence } from './leases.repo';
import { type BookedRow, countAgainstProfitLimit } from './profit-limit';
import { rowsOf } from './rows';

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
  /**
   * A part of a range grid's resting order whose rest still rests (docs/trading-rules.md §2.6 "Live"): its
   * intent stays open until the whole order has filled.
   */
  rests?: boolean;
}

/**
 * A closing order's part of the pair's profit, booked on the order's row, which already holds all that filled:
 * a range grid's order the exchange ended with a rest too small to place again counts as complete with what
 * filled (docs/trading-rules.md §2.6 "Live"). Its intent ends as filled.
 */
export interface PnlOnRow {
  seq: number;
  side: 'buy' | 'sell';
  pnl: string;
  onRow: true;
}

export interface FillWithState {
  botId: string;
  userId: string;
  /** One order's fill, or a range grid's fills of several orders (one each) that its new state books. */
  fills: readonly (FillRecord | PnlOnRow)[];
  state: RuntimeState;
  lastPrice: number;
  /** Intents the new state holds, written with it (none for a fill alone). */
  intents?: readonly (Intent | RangeIntent)[];
}

/**
 * Fill rows, their intents' end, the bots' new states and books. A row is one order's fill: a range grid's
 * resting order filled in parts writes its row again with the order's whole fill so far, which replaces the
 * row only when it has grown (so a fill written twice, or an older part, changes nothing and counts nothing
 * twice against the profit limit). A `PnlOnRow` sets the pnl of a row that has none yet, so it too is booked
 * once however often it is written. Answers the bots that got commands from the profit limit, for
 * `onCommandsQueued` once the transaction has committed. With `fences` (leased mode) the statement checks them
 * itself (`statementFence`) and writes nothing, refused with `FencedError`, when one is stale.
 */
export async function writeFills(
  db: Db,
  items: readonly FillWithState[],
  now: Date,
  fences: readonly Fence[] = [],
): Promise<string[]> {
  const fills = items.flatMap(({ botId, userId, fills }) => fills.map((fill) => ({ botId, userId, fill })));
  const rows = fills.map(({ botId, userId, fill }) =>
    'onRow' in fill
      ? { bot_id: botId, user_id: userId, seq: fill.seq, pnl: fill.pnl, on_row: true, rests: false }
      : {
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
          rests: fill.rests === true,
          on_row: false,
        },
  );
  const fence = statementFence(fences);
  // With fences, a stale one answers one more row, the stale bots (`bookedUnlessFenced`).
  const staleRow =
    fences.length === 0
      ? sql``
      : sql`union all select null, null, null, stale from (select ${fence.stale} as stale) as fenced
        where json_array_length(stale) > 0`;
  // Fill rows, their intents' end, the bots' new states and books: one statement, so one transaction.
  const statement = sql`
    with ${fence.ctes}
    ${statesCte(newestStates(items), now, fence.gate)},
    f as (
      select * from json_to_recordset(${JSON.stringify(rows)}::json) as f(
        bot_id uuid, user_id uuid, seq integer, side text, grid integer, price numeric, qty numeric,
        quote numeric, fee numeric, fee_asset text, fee_paid numeric, pnl numeric, time_ms bigint,
        client_order_id text, rests boolean, on_row boolean) ${fence.gate}),
    upserted as (
      insert into ${botFills}
        (bot_id, user_id, seq, side, grid, price, qty, quote, fee, fee_asset, fee_paid, pnl, time_ms,
         client_order_id)
      select bot_id, user_id, seq, side, grid, price, qty, quote, fee, fee_asset, fee_paid, pnl, time_ms,
        client_order_id from f where not on_row
      on conflict (bot_id, seq) do update set price = excluded.price, qty = excluded.qty,
        quote = excluded.quote, fee = excluded.fee, fee_asset = excluded.fee_asset, fee_paid = excluded.fee_paid,
        pnl = excluded.pnl, time_ms = excluded.time_ms
        where ${botFills}.qty < excluded.qty
      returning bot_id, user_id, seq, pnl, xmax = 0 as inserted),
    priced as (
      update ${botFills} as r set pnl = f.pnl
      from f where f.on_row and r.bot_id = f.bot_id and r.seq = f.seq and r.pnl is null
      returning r.bot_id, r.user_id, r.seq, r.pnl),
    -- A row grown by a part (xmax is set on a row the upsert updated) or priced books its pnl; it is no new
    -- fill of the Order Book.
    ins as (
      select bot_id, user_id, seq, pnl, inserted as fill from upserted
      union all select bot_id, user_id, seq, pnl, false from priced),
    done as (
      update ${botIntents} as i set status = 'filled', updated_at = ${now.toISOString()}::timestamptz
      from f where i.bot_id = f.bot_id and i.seq = f.seq and not f.rests),
    ${endAppliedStops()},
    ${insertIntentsCte(items, fence.gate)},
    upd as (${updateBotsFromStatesAndFills()})
    select bot_id as "botId", user_id as "userId", pnl::text as pnl, null::json as stale from ins
    ${staleRow}`;
  const booksProfit = fills.some(({ fill }) => fill.pnl !== null && Number(fill.pnl) > 0);
  return (await executeBooking(db, statement, booksProfit)).notified;
}

/**
 * Runs a statement that inserts Order Book rows (fills, funding) and answers the rows it inserted. Profit
 * limit (docs/product.md §5): every booked profit, a sell's or funding received, lowers availableCredit in
 * the same transaction as its row, so a crash can neither count it twice nor lose it; a loss gives none back.
 * `mayBookProfit` false (no row has a positive pnl) skips the transaction. Also answers the bots that got
 * commands from it (`notified`), for `onCommandsQueued`.
 */
export async function executeBooking(
  db: Db,
  statement: SQL,
  mayBookProfit: boolean,
): Promise<{ booked: BookedRow[]; notified: string[] }> {
  if (!mayBookProfit) return { booked: bookedUnlessFenced(await db.execute(statement)), notified: [] };
  let notified: string[] = [];
  const booked = await db.transaction(async (tx) => {
    const rows = bookedUnlessFenced(await tx.execute(statement));
    // A few statements for the whole batch (not a few per fill): the transaction stays short.
    notified = await countAgainstProfitLimit(tx, rows);
    return rows;
  });
  return { booked, notified };
}

/**
 * The rows a booking statement inserted; a statement with a lease check answers, instead, one row with the
 * bots whose token no longer holds (`statementFence`), having written nothing: refused with `FencedError`,
 * before a transaction around it counts anything against the profit limit.
 */
function bookedUnlessFenced(result: unknown): BookedRow[] {
  const rows = rowsOf<BookedRow & { stale?: string[] | null }>(result);
  const stale = rows.find((row) => row.stale != null)?.stale;
  if (stale) throw new FencedError(stale);
  return rows;
}
