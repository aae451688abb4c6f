/**
 * PnL, ROI, APR and the futures formulas of docs/trading-rules.md §2.1–2.2. Decimal inside, numbers out.
 */
import { feeOf, money } from '../money';
import type { Account } from '../types';

const MS_PER_DAY = 86_400_000;

/** A lot's profit = sell quote − sell fee − buy quote − buy fee (docs/trading-rules.md §2.1). */
export function lotProfit(sellQuote: number, sellFee: number, buyQuote: number, buyFee: number): number {
  return money(sellQuote).minus(sellFee).minus(buyQuote).minus(buyFee).toNumber();
}

/** The dust a bot's next sell takes with its lots; absent in states saved before it was carried. */
export function carriedDust(account: Account): number {
  return account.dustQty ?? 0;
}

/** The coin the bot holds: its open lots and its dust (docs/trading-rules.md §2.1). */
export function heldQty(account: Account): number {
  return account.openQty + carriedDust(account);
}

/** What the held coin cost: the open lots' cost and the dust's booked value. */
export function heldCost(account: Account): number {
  return account.openCost + (account.dustCost ?? 0);
}

/**
 * Σ open lots (qty × p − buy quote − buy fee) and the dust at p, less the fee a market sell of them all at p
 * would pay (`exitFeePct`, percent of their value; futures: the taker fee of closing the position; 0 leaves
 * it out), computed in decimal (docs/trading-rules.md §2.1).
 */
export function unrealizedPnl(account: Account, price: number, exitFeePct = 0): number {
  const value = money(account.openQty).plus(carriedDust(account)).times(price);
  return value
    .minus(feeOf(value, exitFeePct))
    .minus(account.openCost)
    .minus(account.dustCost ?? 0)
    .toNumber();
}

/** Booked + unrealized (with the exit fee of `unrealizedPnl` when its rate is given). */
export function totalPnl(account: Account, price: number, exitFeePct = 0): number {
  return totalPnlWith(account, unrealizedPnl(account, price, exitFeePct));
}

/** Booked + an unrealized PnL already computed (`unrealizedPnl`), in decimal. */
export function totalPnlWith(account: Account, unrealized: number): number {
  return money(account.bookedProfit).plus(unrealized).toNumber();
}

/** ROI % = total PnL / investment × 100. */
export function roiPct(total: number, investment: number): number {
  if (investment <= 0) return 0;
  return money(total).dividedBy(investment).times(100).toNumber();
}

/**
 * APR % = ROI × 365 / max(runtime days, 1): simple, not compounded, so an annual percentage rate. The product's
 * screens call it APY, as the specification does; the backtest report and the docs call it what it is.
 */
export function aprPct(roi: number, runtimeMs: number): number {
  const days = Math.max(runtimeMs / MS_PER_DAY, 1);
  return money(roi).times(365).dividedBy(days).toNumber();
}

/** Futures margin of a notional at `leverage` (the grid's quote is the margin, docs/trading-rules.md §2.2). */
export function marginOf(notional: number, leverage: number): number {
  return money(notional).dividedBy(leverage).toNumber();
}

/** Equity (investment + total PnL) as a float, for the per-tick drawdown statistic. */
export function equityAt(account: Account, price: number): number {
  return account.investment + account.bookedProfit + heldQty(account) * price - heldCost(account);
}
