import { botFills, bots, type Db } from '@gridbot/db';
import { money } from '@gridbot/shared';
import { and, eq, sql } from 'drizzle-orm';
import { newestStates, statesCte, updateBotsFromStatesAndFills } from './bot-state.repo';
import type { RuntimeState } from './bot-status';
import { executeBooking } from './fills.repo';

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
 * per fill"). `booked` false, writing nothing, when the bot already booked this funding time; `notified`: the
 * bots that got commands from the profit limit.
 */
export async function writeFunding(
  db: Db,
  botId: string,
  userId: string,
  funding: FundingRecord,
  state: RuntimeState,
  lastPrice: number,
  now: Date,
): Promise<{ booked: boolean; notified: string[] }> {
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
    with ${statesCte(newestStates([{ botId, state, lastPrice }]), now)},
    f as (
      select * from json_to_recordset(${JSON.stringify([row])}::json) as f(
        bot_id uuid, user_id uuid, price numeric, qty numeric, quote numeric, pnl numeric, time_ms bigint,
        client_order_id text)),
    ins as (
      insert into ${botFills}
        (bot_id, user_id, seq, side, grid, price, qty, quote, fee, pnl, time_ms, client_order_id)
      select bot_id, user_id, null, 'FUNDING', 0, price, qty, quote, 0, pnl, time_ms, client_order_id from f
      on conflict do nothing
      returning bot_id, user_id, seq, pnl, true as fill),
    upd as (${updateBotsFromStatesAndFills()} and exists (select 1 from ins))
    select bot_id as "botId", user_id as "userId", pnl::text as pnl from ins`;
  const { booked, notified } = await executeBooking(db, statement, funding.amount > 0);
  return { booked: booked.length > 0, notified };
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
