/**
 * The fake Binance server's checks of a limit order against the symbol's open-order and price filters, as
 * Binance documents them:
 *   [spot filters.md] binance/binance-spot-api-docs filters.md, "MAX_NUM_ORDERS", "PERCENT_PRICE_BY_SIDE";
 *   [spot errors.md] errors.md, "-1013 INVALID_MESSAGE" (its messages under "Filter failures") and
 *     "Messages for -1010 ERROR_MSG_RECEIVED, -2010 NEW_ORDER_REJECTED, -2011 CANCEL_REJECTED";
 *   [spot rest-api.md] rest-api.md, "New order (TRADE)" (type LIMIT_MAKER);
 *   [futures] USDⓈ-M "Exchange Information" (filters MAX_NUM_ORDERS `limit`, PERCENT_PRICE) and "Error Codes"
 *     (-2025 MAX_OPEN_ORDER_EXCEEDED, -4016 PRICE_HIGHER_THAN_MULTIPLIER_UP, -4024 PRICE_LOWER_THAN_MULTIPLIER_DOWN).
 */
import type { MarketKind, MarketRules, Money, PercentPriceRule } from '@gridbot/shared';
import { BinanceReject } from './fake-binance-reject';

/**
 * The double's MAX_NUM_ORDERS where a test sets none: the limit the double's futures exchangeInfo has always
 * served (200). Tests that need a tighter one set `maxNumOrders` in the book's rule overrides.
 */
export const DEFAULT_MAX_NUM_ORDERS = 200;

/**
 * The double's PERCENT_PRICE_BY_SIDE where a test sets none: the multipliers of the filter's own example in
 * [spot filters.md] "PERCENT_PRICE_BY_SIDE" (bid 0.2–1.2, ask 0.8–5). Futures PERCENT_PRICE bounds a buy
 * from above (`multiplierUp`) and a sell from below (`multiplierDown`) against the mark price; the double's
 * futures exchangeInfo has always served 1.05 and 0.95. A multiplier of 0 sets no bound.
 */
export const DEFAULT_PERCENT_PRICE: Readonly<Record<MarketKind, PercentPriceRule>> = {
  spot: { bidUp: '1.2', bidDown: '0.2', askUp: '5', askDown: '0.8' },
  future: { bidUp: '1.05', bidDown: '0', askUp: '0', askDown: '0.95' },
};

export function maxNumOrdersOf(rules: MarketRules): number {
  return rules.maxNumOrders ?? DEFAULT_MAX_NUM_ORDERS;
}

export function percentPriceOf(rules: MarketRules): PercentPriceRule {
  return rules.percentPrice ?? DEFAULT_PERCENT_PRICE[rules.market];
}

/**
 * [spot filters.md] "MAX_NUM_ORDERS": "the maximum number of orders an account is allowed to have open on a
 * symbol"; a new limit order beyond it fails with -1013 "Filter failure: MAX_NUM_ORDERS" ([spot errors.md]
 * "Filter failures": "Account has too many open orders on the symbol."). [futures] -2025 "Reach max open
 * order limit.". A market order never stays open, so it is not counted against the limit.
 */
export function checkOpenOrderCount(market: MarketKind, rules: MarketRules, openCount: number): void {
  if (openCount < maxNumOrdersOf(rules)) return;
  throw market === 'spot'
    ? new BinanceReject(400, -1013, 'Filter failure: MAX_NUM_ORDERS')
    : new BinanceReject(400, -2025, 'Reach max open order limit.');
}

/**
 * [spot filters.md] "PERCENT_PRICE_BY_SIDE": a buy needs `price <= weightedAveragePrice × bidMultiplierUp`
 * and `>= × bidMultiplierDown`, a sell the same with the ask multipliers; "avgPriceMins … 0 means the last
 * price is used", which the double serves (it keeps no trade tape), so `reference` is its price. A failure is
 * -1013 "Filter failure: PERCENT_PRICE_BY_SIDE" (the form of every message under [spot errors.md] "Filter
 * failures"). [futures] PERCENT_PRICE against the mark price (the double's price), a buy below
 * `multiplierUp`, a sell above `multiplierDown`: above the cap -4016
 * "Limit price can't be higher than %s.", below the floor -4024 "Limit price can't be lower than %s.".
 */
export function checkPercentPrice(
  market: MarketKind,
  rules: MarketRules,
  side: 'BUY' | 'SELL',
  price: Money,
  reference: Money,
): void {
  const rule = percentPriceOf(rules);
  const up = reference.times(side === 'BUY' ? rule.bidUp : rule.askUp);
  const down = reference.times(side === 'BUY' ? rule.bidDown : rule.askDown);
  if ((up.isZero() || price.lte(up)) && price.gte(down)) return;
  if (market === 'spot') throw new BinanceReject(400, -1013, 'Filter failure: PERCENT_PRICE_BY_SIDE');
  throw price.gt(up)
    ? new BinanceReject(400, -4016, `Limit price can't be higher than ${up.toDecimalPlaces(8).toFixed()}.`)
    : new BinanceReject(400, -4024, `Limit price can't be lower than ${down.toDecimalPlaces(8).toFixed()}.`);
}

/**
 * [spot rest-api.md] "New order (TRADE)", type LIMIT_MAKER: "a LIMIT order that will be rejected if the order
 * immediately matches and trades as a taker" — -2010 "Order would immediately match and take." ([spot
 * errors.md] messages for -2010 NEW_ORDER_REJECTED). `crosses`: the order would trade at the price now.
 */
export function checkMakerOnly(crosses: boolean): void {
  if (crosses) throw new BinanceReject(400, -2010, 'Order would immediately match and take.');
}

/**
 * [derivatives change-log, USDⓈ-M Futures] "When placing order with timeInForce FOK or GTX(Post-only), if the
 * order can't meet execution criteria, order will get rejected directly and receive error response, no
 * order_trade_update message in websocket. The order can't be found in GET /fapi/v1/order": -5022.
 */
export function checkGtx(crosses: boolean): void {
  if (crosses)
    throw new BinanceReject(
      400,
      -5022,
      'Due to the order could not be executed as maker, the Post Only order will be rejected. The order will not be recorded in the order history',
    );
}
