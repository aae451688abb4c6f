/**
 * Binance REST response bodies as documented (spot /api/v3 in binance-spot-api-docs rest-api.md, USDⓈ-M
 * /fapi in the futures docs), built from the fake's book. Used by the loopback fake server only.
 */
import { allMarketRules, decimalsOf, type MarketRules, type Money } from '@gridbot/shared';
import type { BookOrder, BookPosition, BookTrade, FakeBinanceBook } from './fake-binance-book';
import { maxNumOrdersOf, percentPriceOf } from './fake-binance-filters';

const RATE_LIMITS = [
  { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 },
  { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 },
];

export function spotExchangeInfo(serverTime: number, rules: readonly MarketRules[] = allMarketRules()) {
  return {
    timezone: 'UTC',
    serverTime,
    rateLimits: RATE_LIMITS,
    exchangeFilters: [],
    symbols: rules
      .filter((r) => r.market === 'spot')
      .map((r) => ({
        symbol: r.symbol,
        status: 'TRADING',
        baseAsset: r.base,
        baseAssetPrecision: 8,
        quoteAsset: 'USDT',
        quotePrecision: 8,
        quoteAssetPrecision: 8,
        baseCommissionPrecision: 8,
        quoteCommissionPrecision: 8,
        orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'],
        icebergAllowed: true,
        ocoAllowed: true,
        otoAllowed: true,
        quoteOrderQtyMarketAllowed: true,
        allowTrailingStop: true,
        cancelReplaceAllowed: true,
        isSpotTradingAllowed: true,
        isMarginTradingAllowed: false,
        filters: [
          {
            filterType: 'PRICE_FILTER',
            minPrice: r.tickSize,
            maxPrice: '1000000.00000000',
            tickSize: r.tickSize,
          },
          { filterType: 'LOT_SIZE', minQty: r.minQty, maxQty: '9000000.00000000', stepSize: r.stepSize },
          { filterType: 'MARKET_LOT_SIZE', minQty: r.minQty, maxQty: '9000.00000000', stepSize: r.stepSize },
          {
            filterType: 'NOTIONAL',
            minNotional: r.minNotional,
            applyMinToMarket: true,
            maxNotional: '9000000.00000000',
            applyMaxToMarket: false,
            avgPriceMins: 5,
          },
          // [spot filters.md] "PERCENT_PRICE_BY_SIDE"; avgPriceMins 0: "the last price is used".
          {
            filterType: 'PERCENT_PRICE_BY_SIDE',
            bidMultiplierUp: percentPriceOf(r).bidUp,
            bidMultiplierDown: percentPriceOf(r).bidDown,
            askMultiplierUp: percentPriceOf(r).askUp,
            askMultiplierDown: percentPriceOf(r).askDown,
            avgPriceMins: 0,
          },
          // [spot filters.md] "MAX_NUM_ORDERS".
          { filterType: 'MAX_NUM_ORDERS', maxNumOrders: maxNumOrdersOf(r) },
        ],
        permissions: [],
        permissionSets: [['SPOT']],
        defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
        allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
      })),
  };
}

export function futuresExchangeInfo(serverTime: number, rules: readonly MarketRules[] = allMarketRules()) {
  return {
    timezone: 'UTC',
    serverTime,
    futuresType: 'U_MARGINED',
    rateLimits: RATE_LIMITS,
    exchangeFilters: [],
    assets: [{ asset: 'USDT', marginAvailable: true, autoAssetExchange: '-10000' }],
    symbols: rules
      .filter((r) => r.market === 'future')
      .map((r) => ({
        symbol: r.symbol,
        pair: r.symbol,
        contractType: 'PERPETUAL',
        deliveryDate: 4133404800000,
        onboardDate: 1569398400000,
        status: 'TRADING',
        maintMarginPercent: '2.5000',
        requiredMarginPercent: '5.0000',
        baseAsset: r.base,
        quoteAsset: 'USDT',
        marginAsset: 'USDT',
        pricePrecision: decimalsOf(r.tickSize),
        quantityPrecision: decimalsOf(r.stepSize),
        baseAssetPrecision: 8,
        quotePrecision: 8,
        underlyingType: 'COIN',
        underlyingSubType: [],
        triggerProtect: '0.0500',
        liquidationFee: '0.012500',
        marketTakeBound: '0.05',
        maxMoveOrderLimit: 10000,
        filters: [
          { filterType: 'PRICE_FILTER', minPrice: r.tickSize, maxPrice: '4529764', tickSize: r.tickSize },
          { filterType: 'LOT_SIZE', minQty: r.minQty, maxQty: '1000', stepSize: r.stepSize },
          { filterType: 'MARKET_LOT_SIZE', minQty: r.minQty, maxQty: '120', stepSize: r.stepSize },
          { filterType: 'MAX_NUM_ORDERS', limit: maxNumOrdersOf(r) },
          { filterType: 'MIN_NOTIONAL', notional: r.minNotional },
          {
            filterType: 'PERCENT_PRICE',
            multiplierUp: percentPriceOf(r).bidUp,
            multiplierDown: percentPriceOf(r).askDown,
            multiplierDecimal: '4',
          },
        ],
        orderTypes: [
          'LIMIT',
          'MARKET',
          'STOP',
          'STOP_MARKET',
          'TAKE_PROFIT',
          'TAKE_PROFIT_MARKET',
          'TRAILING_STOP_MARKET',
        ],
        timeInForce: ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'],
      })),
  };
}

const f8 = (value: Money) => value.toFixed(8);

/**
 * A spot order ([spot rest-api.md] "New order (TRADE)" response FULL, "Query order (USER_DATA)").
 * Only the FULL response of the POST carries `fills`; a queried order never does.
 */
export function spotOrder(order: BookOrder, fills?: readonly BookTrade[]) {
  const body = {
    symbol: order.symbol,
    orderId: order.orderId,
    orderListId: -1,
    clientOrderId: order.clientOrderId,
    price: f8(order.price),
    origQty: f8(order.origQty),
    executedQty: f8(order.executedQty),
    cummulativeQuoteQty: f8(order.cumQuote),
    status: order.status,
    timeInForce: 'GTC',
    type: order.type,
    side: order.side,
    stopPrice: '0.00000000',
    icebergQty: '0.00000000',
    time: order.time,
    updateTime: order.updateTime,
    isWorking: true,
    workingTime: order.time,
    origQuoteOrderQty: '0.00000000',
    selfTradePreventionMode: 'EXPIRE_MAKER',
  };
  if (!fills) return body;
  return {
    ...body,
    transactTime: order.updateTime,
    fills: fills.map((t) => ({
      price: f8(t.price),
      qty: f8(t.qty),
      commission: f8(t.commission),
      commissionAsset: t.commissionAsset,
      tradeId: t.id,
    })),
  };
}

/** [spot rest-api.md] "Account trade list (USER_DATA)" row. */
export function spotTrade(t: BookTrade) {
  return {
    symbol: t.symbol,
    id: t.id,
    orderId: t.orderId,
    orderListId: -1,
    price: f8(t.price),
    qty: f8(t.qty),
    quoteQty: f8(t.quoteQty),
    commission: f8(t.commission),
    commissionAsset: t.commissionAsset,
    time: t.time,
    isBuyer: t.side === 'BUY',
    isMaker: t.maker,
    isBestMatch: true,
  };
}

/** [futures] "New Order" / "Query Order" / "Cancel Order" response (no commission: see userTrades). */
export function futuresOrder(order: BookOrder) {
  const avg = order.executedQty.isZero() ? '0' : order.cumQuote.dividedBy(order.executedQty).toFixed();
  return {
    orderId: order.orderId,
    symbol: order.symbol,
    status: order.status,
    clientOrderId: order.clientOrderId,
    price: order.price.toFixed(),
    avgPrice: avg,
    origQty: order.origQty.toFixed(),
    executedQty: order.executedQty.toFixed(),
    cumQty: order.executedQty.toFixed(),
    cumQuote: order.cumQuote.toFixed(),
    timeInForce: 'GTC',
    type: order.type,
    origType: order.type,
    reduceOnly: order.reduceOnly,
    closePosition: false,
    side: order.side,
    positionSide: 'BOTH',
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    priceMatch: 'NONE',
    selfTradePreventionMode: 'EXPIRE_MAKER',
    goodTillDate: 0,
    time: order.time,
    updateTime: order.updateTime,
  };
}

/** [futures] "Account Trade List (USER_DATA)" row. */
export function futuresTrade(t: BookTrade) {
  return {
    buyer: t.side === 'BUY',
    commission: t.commission.toFixed(),
    commissionAsset: t.commissionAsset,
    id: t.id,
    maker: t.maker,
    orderId: t.orderId,
    price: t.price.toFixed(),
    qty: t.qty.toFixed(),
    quoteQty: t.quoteQty.toFixed(),
    realizedPnl: t.realizedPnl.toFixed(),
    side: t.side,
    positionSide: 'BOTH',
    symbol: t.symbol,
    time: t.time,
  };
}

/**
 * [futures] "Position Information V2" row: every symbol is listed, a flat one with positionAmt 0; the
 * liquidation price is the exchange's own figure.
 */
export function positionRisk(book: FakeBinanceBook, symbol: string, now: number) {
  const position: BookPosition | undefined = book.positions.get(symbol);
  const mark = book.price(symbol, 'future');
  const unrealized = position ? mark.minus(position.entry).times(position.qty) : undefined;
  return {
    symbol,
    positionAmt: position ? position.qty.toFixed() : '0.000',
    entryPrice: position ? position.entry.toFixed() : '0.0',
    breakEvenPrice: position ? position.entry.toFixed() : '0.0',
    markPrice: mark.toFixed(),
    unRealizedProfit: unrealized ? unrealized.toFixed(8) : '0.00000000',
    liquidationPrice: book.liquidationPrice(symbol)?.toFixed() ?? '0',
    leverage: String(book.leverageOf(symbol)),
    maxNotionalValue: '250000',
    marginType: (book.marginType.get(symbol) ?? 'CROSSED') === 'ISOLATED' ? 'isolated' : 'cross',
    isolatedMargin:
      position && unrealized ? position.isolatedWallet.plus(unrealized).toFixed(8) : '0.00000000',
    isAutoAddMargin: 'false',
    positionSide: 'BOTH',
    notional: position ? position.qty.times(mark).toFixed() : '0',
    isolatedWallet: position ? position.isolatedWallet.toFixed(8) : '0',
    updateTime: now,
  };
}
