/**
 * Building intents. Decimal here: intents cross to the exchange, so their quantities are rounded to the
 * market rules first (docs/trading-rules.md §2.1).
 */

import { positionOf } from '../fills/ledger';
import { floorToStep, money } from '../money';
import type { EngineRules } from '../rules';
import type {
  Account,
  Intent,
  Lot,
  MarketBuy,
  Notice,
  PendingIntent,
  SellLots,
  SellReason,
  StopReason,
} from '../types';

export const NO_INTENTS: readonly Intent[] = Object.freeze([]) as readonly Intent[];

/** Buy decision outcome: the intent, or a notice that the order would be below min notional. */
export type BuyPlan = { ok: true; intent: MarketBuy } | { ok: false; notice: Notice };

/**
 * Market buy of `grid` with quote (futures: margin) `investment × alloc`; qty from the notional
 * (quote × leverage) at the tick price, rounded down to the step (docs/trading-rules.md §2.1–2.2).
 */
export function planBuy(
  seq: number,
  grid: number,
  quote: number,
  leverage: number,
  price: number,
  rules: EngineRules,
): BuyPlan {
  const quoteAmount = money(quote).toDecimalPlaces(8, 1);
  const qty = floorToStep(quoteAmount.times(leverage).dividedBy(price), rules.stepSize);
  const notional = qty.times(price);
  if (qty.lte(0) || notional.lt(rules.minNotional)) {
    return {
      ok: false,
      notice: {
        type: 'BuySkipped',
        grid,
        reason: 'below_min_notional',
        notional: notional.toNumber(),
        minNotional: rules.minNotionalNum,
      },
    };
  }
  return {
    ok: true,
    intent: { type: 'MarketBuy', seq, grid, qty: qty.toFixed(), quoteAmount: quoteAmount.toFixed(), price },
  };
}

/**
 * Sell of `lots` (given newest first) at market, with the bot's carried `dust` (docs/trading-rules.md §2.1):
 * qty = (Σ lot qty + dust) rounded down to the step, so a coin commission's remainder is sold once it and
 * the next lots make up a step instead of being stranded.
 */
export function sellLots(
  seq: number,
  lots: readonly Lot[],
  price: number,
  reason: SellReason,
  rules: EngineRules,
  dust = 0,
): SellLots {
  const total = lots.reduce((s, l) => s.plus(l.qty), money(dust));
  const intent: SellLots = {
    type: 'SellLots',
    seq,
    lotIds: lots.map((l) => l.id),
    grids: lots.map((l) => l.grid),
    qty: floorToStep(total, rules.stepSize).toFixed(),
    price,
    reason,
  };
  if (dust > 0) intent.dustQty = money(dust).toFixed();
  return intent;
}

/**
 * Liquidation record: the position closes at `liqPrice` and its margin is lost (docs/trading-rules.md §2.2). What
 * closing returns is the position's cost at its average entry minus its margin, so the lots' booked
 * profits add up to what the exchange books over the position's life.
 */
export function liquidation(seq: number, lots: readonly Lot[], liqPrice: number, account: Account): Intent {
  let qty = money(0);
  for (const l of lots) qty = qty.plus(l.qty);
  const pos = positionOf(account);
  const back = money(pos.entryNotional).minus(pos.margin);
  return {
    type: 'RecordLiquidation',
    seq,
    lotIds: lots.map((l) => l.id),
    grids: lots.map((l) => l.grid),
    qty: qty.toFixed(),
    price: liqPrice,
    quote: (back.isNegative() ? money(0) : back).toFixed(),
  };
}

export function pendingOf(
  intent: Intent,
  lots: Lot[],
  prevStatus: string,
  prevStopReason: StopReason | null,
  setStatus: string | null = null,
): PendingIntent {
  return { intent, lots, prevStatus, prevStopReason, setStatus };
}

/** Lots newest first (the order lots are sold in, docs/trading-rules.md §2.2 step 3). */
export function newestFirst(lots: readonly Lot[]): Lot[] {
  return lots.slice().reverse();
}
