/**
 * The price a simulated market order fills at (docs/trading-rules.md §2.5): the decision price moved against the
 * bot by the optional slippage, then rounded to the symbol's tick against the bot (a buy up, a sell
 * down). A price within 1e-9 of its own size from a tick counts as on it, so float noise in an event
 * level (e.g. 100 × 0.98 = 97.99999999999999) does not cost a whole tick. One implementation for the
 * backtest CLI, the in-browser backtest and the paper exchange.
 */
import { Money, type MoneyInput, money } from '../money/money';

const ON_TICK = 1e-9;

export type FillSide = 'buy' | 'sell';

/** The fill price of a market `side` order decided at `price`, as a decimal on the tick. */
export function fillPriceAgainst(
  price: MoneyInput,
  side: FillSide,
  tickSize: MoneyInput,
  slippageBps = 0,
): Money {
  let p = money(price);
  if (slippageBps !== 0) {
    const move = money(slippageBps).dividedBy(10_000);
    p = p.times(side === 'buy' ? money(1).plus(move) : money(1).minus(move));
  }
  const tick = money(tickSize);
  const units = p.dividedBy(tick);
  const nearest = units.toDecimalPlaces(0, Money.ROUND_HALF_UP);
  if (nearest.gt(0) && nearest.minus(units).abs().lte(units.times(ON_TICK))) return nearest.times(tick);
  const rounded = units.toDecimalPlaces(0, side === 'buy' ? Money.ROUND_CEIL : Money.ROUND_FLOOR);
  // A sell below one tick would fill at 0: it fills at the smallest tick instead.
  return (rounded.gt(0) ? rounded : money(1)).times(tick);
}

/**
 * The fill price of a market order on a simulated exchange (docs/trading-rules.md §2.5): for an order an engine
 * event produced, that event's level rounded against the bot, as in the backtest; otherwise the feed's price
 * rounded against the taker. A bot detects a crossing on the first traded tick past its level, one tick in its
 * favour, but its market order crosses the spread: the fill is the level rounded against the bot. The runtime
 * walks the straight line from its last price to the feed's (the path of §2.5), so by the time the order
 * arrives the feed may quote the line's end, beyond the level: the path crossed the level on the way, and the
 * order fills there, as the backtest's does (a trailing take-profit's sell on a falling line at its level, not
 * at the lower end of the line).
 */
export function marketFillPrice(
  feedPrice: MoneyInput,
  side: FillSide,
  tickSize: MoneyInput,
  eventPrice?: MoneyInput,
): Money {
  return fillPriceAgainst(eventPrice ?? feedPrice, side, tickSize);
}
