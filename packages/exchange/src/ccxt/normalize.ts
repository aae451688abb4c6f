/**
 * Pure conversions from what ccxt hands back (its loaded markets, and Binance's raw JSON bodies from
 * the implicit API methods) to the port's types. Venue enums are mapped explicitly (docs/contributing.md §4).
 */
import {
  DEFAULT_MAINT_MARGIN_RATE,
  findMarketRules,
  type MarketKind,
  type MarketRules,
  money,
  type PercentPriceRule,
} from '@gridbot/shared';
import type { MarketInterface } from 'ccxt';
import type { Balance, ForcedClose, FuturesPosition, Order, OrderStatus, OrderTrade } from '../exchange-port';

type Raw = Record<string, unknown>;

const str = (value: unknown, fallback = '0'): string =>
  value === undefined || value === null || value === '' ? fallback : String(value);
const plain = (value: unknown): string => money(str(value)).toFixed();

/** Market rules from a ccxt market (precisionMode TICK_SIZE: precision.price/amount are the tick and step). */
export function rulesFromMarket(market: MarketInterface, kind: MarketKind): MarketRules {
  const tickSize = money(market.precision.price ?? 0).toFixed();
  const stepSize = money(market.precision.amount ?? 0).toFixed();
  const known = findMarketRules(market.id ?? '', kind);
  return {
    symbol: market.id ?? '',
    base: market.base,
    quote: 'USDT',
    market: kind,
    tickSize,
    stepSize,
    minQty: money(market.limits.amount?.min ?? stepSize).toFixed(),
    minNotional: money(market.limits.cost?.min ?? 0).toFixed(),
    // exchangeInfo carries no maintenance rate; leverageBracket needs a signed call, so use the table.
    maintMarginRate: kind === 'future' ? (known?.maintMarginRate ?? DEFAULT_MAINT_MARGIN_RATE) : 0,
    maxLeverage: kind === 'future' ? (known?.maxLeverage ?? 20) : 1,
    ...exchangeFilters(market.info as Raw | undefined, kind),
  };
}

/**
 * The open-order and percent-price filters of a symbol's exchangeInfo entry (ccxt keeps it as `info`):
 * spot MAX_NUM_ORDERS `maxNumOrders` and PERCENT_PRICE_BY_SIDE (binance-spot-api-docs filters.md); USDⓈ-M
 * MAX_NUM_ORDERS `limit` and PERCENT_PRICE (a buy at most `multiplierUp` × the mark price, a sell at least
 * `multiplierDown` ×; the other side unbounded, 0).
 */
export function exchangeFilters(
  info: Raw | undefined,
  kind: MarketKind,
): Pick<MarketRules, 'maxNumOrders' | 'percentPrice'> {
  const filters = Array.isArray(info?.filters) ? (info.filters as Raw[]) : [];
  const byType = (type: string) => filters.find((f) => f.filterType === type);
  const out: Pick<MarketRules, 'maxNumOrders' | 'percentPrice'> = {};
  const maxNum = byType('MAX_NUM_ORDERS');
  const limit = Number(kind === 'spot' ? maxNum?.maxNumOrders : maxNum?.limit);
  if (Number.isInteger(limit) && limit > 0) out.maxNumOrders = limit;
  let percent: PercentPriceRule | undefined;
  if (kind === 'spot') {
    const f = byType('PERCENT_PRICE_BY_SIDE');
    if (f)
      percent = {
        bidUp: plain(f.bidMultiplierUp),
        bidDown: plain(f.bidMultiplierDown),
        askUp: plain(f.askMultiplierUp),
        askDown: plain(f.askMultiplierDown),
      };
  } else {
    const f = byType('PERCENT_PRICE');
    if (f)
      percent = { bidUp: plain(f.multiplierUp), bidDown: '0', askUp: '0', askDown: plain(f.multiplierDown) };
  }
  if (percent) out.percentPrice = percent;
  return out;
}

const STATUS: Readonly<Record<string, OrderStatus>> = {
  NEW: 'NEW',
  PARTIALLY_FILLED: 'PARTIALLY_FILLED',
  FILLED: 'FILLED',
  CANCELED: 'CANCELED',
  PENDING_CANCEL: 'CANCELED',
  REJECTED: 'REJECTED',
  EXPIRED: 'EXPIRED',
  EXPIRED_IN_MATCH: 'EXPIRED',
};

export function orderStatus(raw: unknown): OrderStatus {
  const status = STATUS[str(raw, 'NEW')];
  if (!status) throw new Error(`Unknown Binance order status ${String(raw)}`);
  return status;
}

/** Binance's limit order types the platform sends: LIMIT (GTC or GTX) and spot LIMIT_MAKER. */
const LIMIT_TYPES = new Set(['LIMIT', 'LIMIT_MAKER']);

/** A spot order body (POST FULL, GET, DELETE /api/v3/order). Fee = Σ fills' commission (asset of the first). */
export function orderFromSpot(raw: Raw): Order {
  const fills = Array.isArray(raw.fills) ? (raw.fills as Raw[]) : [];
  const executed = money(str(raw.executedQty));
  const quote = money(str(raw.cummulativeQuoteQty));
  const fee = fills.reduce((sum, f) => sum.plus(str(f.commission)), money(0));
  const price = money(str(raw.price));
  return {
    market: 'spot',
    symbol: str(raw.symbol),
    clientOrderId: str(raw.clientOrderId),
    exchangeOrderId: str(raw.orderId),
    side: str(raw.side) === 'SELL' ? 'sell' : 'buy',
    type: LIMIT_TYPES.has(str(raw.type)) ? 'limit' : 'market',
    status: orderStatus(raw.status),
    price: price.isZero() ? undefined : price.toFixed(),
    quantity: plain(raw.origQty),
    filledQuantity: executed.toFixed(),
    filledQuote: quote.toFixed(),
    averagePrice: executed.isZero() ? undefined : quote.dividedBy(executed).toFixed(),
    fee: fee.toFixed(),
    feeAsset: str(fills[0]?.commissionAsset, 'USDT'),
    createdMs: Number(raw.time ?? raw.transactTime ?? 0),
    updatedMs: Number(raw.updateTime ?? raw.transactTime ?? 0),
    ...(fills.length > 0 ? { trades: tradesOf(fills) } : {}),
  };
}

/**
 * An order's trades, oldest first: rows of [spot rest-api.md] "Account trade list" (`id`, `qty`, `quoteQty`,
 * `commission`, `commissionAsset`; the futures "Account Trade List" has the same fields) or the FULL
 * response's `fills` (`tradeId`, `price`, `qty`, `commission`, `commissionAsset`, no quote: qty × price).
 */
export function tradesOf(rows: readonly Raw[]): OrderTrade[] {
  return rows
    .map((t) => ({
      id: str(t.id ?? t.tradeId),
      qty: money(str(t.qty)).toFixed(),
      quote: (t.quoteQty === undefined
        ? money(str(t.qty)).times(str(t.price))
        : money(str(t.quoteQty))
      ).toFixed(),
      fee: money(str(t.commission)).toFixed(),
      feeAsset: str(t.commissionAsset, 'USDT'),
    }))
    .sort((a, b) => Number(a.id) - Number(b.id));
}

/** A USDT-M order body (/fapi/v1/order). The fee comes from the order's trades, when known. */
export function orderFromFutures(raw: Raw, fee = '0'): Order {
  const executed = money(str(raw.executedQty));
  const price = money(str(raw.price));
  const avg = money(str(raw.avgPrice));
  return {
    market: 'future',
    symbol: str(raw.symbol),
    clientOrderId: str(raw.clientOrderId),
    exchangeOrderId: str(raw.orderId),
    side: str(raw.side) === 'SELL' ? 'sell' : 'buy',
    type: LIMIT_TYPES.has(str(raw.type)) ? 'limit' : 'market',
    status: orderStatus(raw.status),
    price: price.isZero() ? undefined : price.toFixed(),
    quantity: plain(raw.origQty),
    filledQuantity: executed.toFixed(),
    filledQuote: plain(raw.cumQuote),
    averagePrice: avg.isZero() ? undefined : avg.toFixed(),
    fee,
    feeAsset: 'USDT',
    createdMs: Number(raw.time ?? raw.updateTime ?? 0),
    updatedMs: Number(raw.updateTime ?? 0),
  };
}

/**
 * Fee of an order from its trades (GET /api/v3/myTrades, /fapi/v1/userTrades): Σ commission in the
 * trades' commission asset. Should one order's trades pay in two assets (BNB running out mid-order), the
 * asset that carries most of the trades is kept with its own sum.
 */
export function feeOfTrades(
  trades: readonly Raw[],
  fallbackAsset: string,
): { fee: string; feeAsset: string } {
  const byAsset = new Map<string, { sum: ReturnType<typeof money>; count: number }>();
  for (const t of trades) {
    const asset = str(t.commissionAsset, fallbackAsset);
    const row = byAsset.get(asset) ?? { sum: money(0), count: 0 };
    byAsset.set(asset, { sum: row.sum.plus(str(t.commission)), count: row.count + 1 });
  }
  let best: [string, { sum: ReturnType<typeof money>; count: number }] | undefined;
  for (const entry of byAsset) if (!best || entry[1].count > best[1].count) best = entry;
  return best ? { fee: best[1].sum.toFixed(), feeAsset: best[0] } : { fee: '0', feeAsset: fallbackAsset };
}

/**
 * A force order of GET /fapi/v1/forceOrders with its trades (GET /fapi/v1/userTrades): a liquidation's
 * client id starts "autoclose-", an auto-deleveraging's is "adl_autoclose" ([futures] "Query Order").
 */
export function forcedCloseOf(raw: Raw, trades: readonly Raw[]): ForcedClose {
  let quote = money(0);
  let realizedPnl = money(0);
  for (const t of trades) {
    quote = quote.plus(str(t.quoteQty));
    realizedPnl = realizedPnl.plus(str(t.realizedPnl));
  }
  return {
    symbol: str(raw.symbol),
    exchangeOrderId: str(raw.orderId),
    reason: str(raw.clientOrderId).startsWith('adl') ? 'adl' : 'liquidation',
    averagePrice: plain(raw.avgPrice),
    quantity: plain(raw.executedQty),
    quote: trades.length > 0 ? quote.toFixed() : plain(raw.cumQuote),
    fee: feeOfTrades(trades, 'USDT').fee,
    realizedPnl: realizedPnl.toFixed(),
    timeMs: Number(raw.updateTime ?? raw.time ?? 0),
  };
}

/** Balances of GET /api/v3/account: non-zero assets, USDT always. */
export function spotBalances(raw: Raw): Balance[] {
  const rows = Array.isArray(raw.balances) ? (raw.balances as Raw[]) : [];
  const out = rows
    .map((b) => ({ asset: str(b.asset), free: plain(b.free), locked: plain(b.locked) }))
    .filter((b) => b.asset === 'USDT' || !money(b.free).plus(b.locked).isZero());
  if (!out.some((b) => b.asset === 'USDT')) out.unshift({ asset: 'USDT', free: '0', locked: '0' });
  return out;
}

/** GET /fapi/v2/balance: free = availableBalance, locked = wallet balance − available (margins, orders). */
export function futuresBalances(rows: readonly Raw[]): Balance[] {
  const out = rows
    .map((b) => {
      const wallet = money(str(b.balance));
      const free = money(str(b.availableBalance));
      const locked = wallet.minus(free);
      return {
        asset: str(b.asset),
        free: free.toFixed(),
        locked: (locked.isNegative() ? money(0) : locked).toFixed(),
      };
    })
    .filter((b) => b.asset === 'USDT' || !money(b.free).plus(b.locked).isZero());
  if (!out.some((b) => b.asset === 'USDT')) out.unshift({ asset: 'USDT', free: '0', locked: '0' });
  return out;
}

/**
 * A GET /fapi/v2/positionRisk row, or undefined for a flat symbol. One-way mode: positionAmt is positive for
 * a long, negative for a short (USDⓈ-M "Position Information V2").
 */
export function positionFromRisk(raw: Raw): FuturesPosition | undefined {
  const qty = money(str(raw.positionAmt));
  if (qty.isZero()) return undefined;
  return {
    symbol: str(raw.symbol),
    side: qty.isNegative() ? 'short' : 'long',
    quantity: qty.abs().toFixed(),
    entryPrice: plain(raw.entryPrice),
    leverage: Number(raw.leverage ?? 1),
    marginType: 'isolated',
    // isolatedWallet is the margin put in; isolatedMargin adds the unrealized PnL.
    isolatedMargin: plain(raw.isolatedWallet ?? raw.isolatedMargin),
    liquidationPrice: plain(raw.liquidationPrice),
    markPrice: raw.markPrice === undefined ? undefined : plain(raw.markPrice),
    unrealizedPnl: raw.unRealizedProfit === undefined ? undefined : plain(raw.unRealizedProfit),
  };
}
