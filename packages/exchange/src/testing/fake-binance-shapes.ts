/**
 * Binance REST response bodies as documented (spot /api/v3, USDT-M /fapi), built from our own types.
 * Used by the loopback fake server only.
 */
import { allMarketRules, decimalsOf, type MarketRules, money } from '@gridbot/shared';
import type { FuturesPosition, Order } from '../exchange-port';

const RATE_LIMITS = [
  { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 },
  { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100 },
];

export function spotExchangeInfo(serverTime: number) {
  return {
    timezone: 'UTC',
    serverTime,
    rateLimits: RATE_LIMITS,
    exchangeFilters: [],
    symbols: allMarketRules()
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
          {
            filterType: 'NOTIONAL',
            minNotional: r.minNotional,
            applyMinToMarket: true,
            maxNotional: '9000000.00000000',
            applyMaxToMarket: false,
            avgPriceMins: 5,
          },
        ],
        permissions: [],
        permissionSets: [['SPOT']],
        defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
        allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
      })),
  };
}

export function futuresExchangeInfo(serverTime: number) {
  return {
    timezone: 'UTC',
    serverTime,
    futuresType: 'U_MARGINED',
    rateLimits: RATE_LIMITS,
    exchangeFilters: [],
    assets: [{ asset: 'USDT', marginAvailable: true, autoAssetExchange: '-10000' }],
    symbols: allMarketRules()
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
          { filterType: 'MAX_NUM_ORDERS', limit: 200 },
          { filterType: 'MIN_NOTIONAL', notional: r.minNotional },
          {
            filterType: 'PERCENT_PRICE',
            multiplierUp: '1.0500',
            multiplierDown: '0.9500',
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

const fixed8 = (value: string) => money(value).toFixed(8);

/** Spot order (POST /api/v3/order FULL response; GET /api/v3/order adds the `time` fields). */
export function spotOrder(order: Order, orderId: number) {
  const filled = order.status === 'FILLED' || order.status === 'PARTIALLY_FILLED';
  return {
    symbol: order.symbol,
    orderId,
    orderListId: -1,
    clientOrderId: order.clientOrderId,
    transactTime: order.updatedMs,
    time: order.createdMs,
    updateTime: order.updatedMs,
    workingTime: order.createdMs,
    price: fixed8(order.price ?? '0'),
    origQty: fixed8(order.quantity),
    executedQty: fixed8(order.filledQuantity),
    cummulativeQuoteQty: fixed8(order.filledQuote),
    origQuoteOrderQty: '0.00000000',
    status: order.status,
    timeInForce: 'GTC',
    type: order.type.toUpperCase(),
    side: order.side.toUpperCase(),
    stopPrice: '0.00000000',
    icebergQty: '0.00000000',
    isWorking: true,
    selfTradePreventionMode: 'EXPIRE_MAKER',
    fills:
      filled && order.averagePrice
        ? [
            {
              price: fixed8(order.averagePrice),
              qty: fixed8(order.filledQuantity),
              commission: fixed8(order.fee),
              commissionAsset: order.feeAsset,
              tradeId: orderId,
            },
          ]
        : [],
  };
}

/** USDT-M order (POST/GET/DELETE /fapi/v1/order). */
export function futuresOrder(order: Order, orderId: number) {
  return {
    orderId,
    symbol: order.symbol,
    status: order.status,
    clientOrderId: order.clientOrderId,
    price: order.price ?? '0',
    avgPrice: order.averagePrice ?? '0',
    origQty: order.quantity,
    executedQty: order.filledQuantity,
    cumQty: order.filledQuantity,
    cumQuote: order.filledQuote,
    timeInForce: 'GTC',
    type: order.type.toUpperCase(),
    origType: order.type.toUpperCase(),
    reduceOnly: order.side === 'sell',
    closePosition: false,
    side: order.side.toUpperCase(),
    positionSide: 'BOTH',
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    priceMatch: 'NONE',
    selfTradePreventionMode: 'EXPIRE_MAKER',
    goodTillDate: 0,
    time: order.createdMs,
    updateTime: order.updatedMs,
  };
}

/** One row of GET /fapi/v2/positionRisk (all symbols are listed, flat ones with positionAmt 0). */
export function positionRisk(
  rules: MarketRules,
  position: FuturesPosition | undefined,
  leverage: number,
  markPrice: string,
) {
  return {
    symbol: rules.symbol,
    positionAmt: position?.quantity ?? '0.000',
    entryPrice: position?.entryPrice ?? '0.0',
    breakEvenPrice: position?.entryPrice ?? '0.0',
    markPrice,
    unRealizedProfit: position?.unrealizedPnl ?? '0.00000000',
    liquidationPrice: position?.liquidationPrice ?? '0',
    leverage: String(position?.leverage ?? leverage),
    maxNotionalValue: '250000',
    marginType: 'isolated',
    isolatedMargin: position?.isolatedMargin ?? '0.00000000',
    isAutoAddMargin: 'false',
    positionSide: 'BOTH',
    notional: position ? money(position.quantity).times(markPrice).toFixed() : '0',
    isolatedWallet: position?.isolatedMargin ?? '0',
    updateTime: Date.now(),
  };
}
