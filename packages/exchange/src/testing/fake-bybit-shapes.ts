/**
 * Bybit V5 response bodies as bybit-exchange/docs (docs/v5/…) documents them, built from the fake's book.
 * Used by the loopback fake Bybit server only.
 */
import { allMarketRules, type MarketRules } from '@gridbot/shared';
import type { BybitBookOrder, BybitCategory, BybitExecution, FakeBybitBook } from './fake-bybit-book';

/** [market/instrument] "Get Instruments Info": spot lotSizeFilter / priceFilter. */
function spotInstrument(r: MarketRules) {
  return {
    symbol: r.symbol,
    baseCoin: r.base,
    quoteCoin: 'USDT',
    innovation: '0',
    status: 'Trading',
    marginTrading: 'none',
    lotSizeFilter: {
      basePrecision: r.stepSize,
      quotePrecision: '0.00000001',
      minOrderQty: r.minQty,
      maxOrderQty: '9000',
      minOrderAmt: r.minNotional,
      maxOrderAmt: '2000000',
    },
    priceFilter: { tickSize: r.tickSize },
  };
}

/** [market/instrument] linear: leverageFilter, priceFilter, lotSizeFilter with qtyStep and minNotionalValue. */
function linearInstrument(r: MarketRules) {
  return {
    symbol: r.symbol,
    contractType: 'LinearPerpetual',
    status: 'Trading',
    baseCoin: r.base,
    quoteCoin: 'USDT',
    launchTime: '1585526400000',
    deliveryTime: '0',
    deliveryFeeRate: '',
    priceScale: String(r.tickSize.split('.')[1]?.length ?? 0),
    leverageFilter: { minLeverage: '1', maxLeverage: `${r.maxLeverage}.00`, leverageStep: '0.01' },
    priceFilter: { minPrice: r.tickSize, maxPrice: '1999999.80', tickSize: r.tickSize },
    lotSizeFilter: {
      maxOrderQty: '1190',
      maxMktOrderQty: '120',
      minOrderQty: r.minQty,
      qtyStep: r.stepSize,
      postOnlyMaxOrderQty: '1190',
      minNotionalValue: r.minNotional,
    },
    unifiedMarginTrade: true,
    fundingInterval: 480,
    settleCoin: 'USDT',
    copyTrading: 'both',
    upperFundingRate: '0.005',
    lowerFundingRate: '-0.005',
  };
}

/** GET /v5/market/instruments-info; `status=PreLaunch` (which ccxt asks for too) lists none here. */
export function instrumentsInfo(category: string, status: string | undefined) {
  const market = category === 'spot' ? 'spot' : 'future';
  const rules = status === 'PreLaunch' ? [] : allMarketRules().filter((r) => r.market === market);
  return {
    category,
    list: rules.map((r) => (category === 'spot' ? spotInstrument(r) : linearInstrument(r))),
    nextPageCursor: '',
  };
}

/** [market/tickers] "Get Tickers": lastPrice (and, linear, markPrice) of one symbol. */
export function ticker(book: FakeBybitBook, category: BybitCategory, symbol: string) {
  const last = book.price(symbol, category).toFixed();
  return {
    category,
    list: [
      {
        symbol,
        lastPrice: last,
        bid1Price: last,
        ask1Price: last,
        ...(category === 'linear' ? { markPrice: last, indexPrice: last, fundingRate: '0.0001' } : {}),
      },
    ],
  };
}

/**
 * An order of [open-order] / [order-list]. Classic spot has no leavesQty, cumExecValue or cumExecFee
 * ("Classic `spot` is not supported") and avgPrice "0" when nothing filled.
 */
export function orderRow(o: BybitBookOrder) {
  const avg = o.cumExecQty.isZero() ? '0' : o.cumExecValue.dividedBy(o.cumExecQty).toFixed();
  const spot = o.category === 'spot';
  return {
    orderId: o.orderId,
    orderLinkId: o.orderLinkId,
    blockTradeId: '',
    symbol: o.symbol,
    price: o.price.toFixed(),
    qty: o.qty.toFixed(),
    side: o.side,
    isLeverage: '',
    positionIdx: o.positionIdx,
    orderStatus: o.orderStatus,
    cancelType: o.orderStatus === 'Cancelled' ? 'CancelByUser' : 'UNKNOWN',
    rejectReason: 'EC_NoError',
    avgPrice: avg,
    leavesQty: spot ? '' : o.baseQty.minus(o.cumExecQty).toFixed(),
    leavesValue: spot ? '' : o.baseQty.minus(o.cumExecQty).times(o.price).toFixed(),
    cumExecQty: o.cumExecQty.toFixed(),
    cumExecValue: spot ? '' : o.cumExecValue.toFixed(),
    cumExecFee: spot ? '' : o.cumExecFee.toFixed(),
    timeInForce: o.orderType === 'Market' ? 'IOC' : 'GTC',
    orderType: o.orderType,
    stopOrderType: '',
    orderIv: '',
    triggerPrice: '0',
    takeProfit: '0',
    stopLoss: '0',
    lastPriceOnCreated: o.lastPriceOnCreated.toFixed(),
    reduceOnly: o.reduceOnly,
    closeOnTrigger: false,
    smpType: 'None',
    createdTime: String(o.createdTime),
    updatedTime: String(o.updatedTime),
  };
}

/** A row of [execution] GET /v5/execution/list. */
export function executionRow(e: BybitExecution) {
  return {
    symbol: e.symbol,
    orderType: 'Market',
    underlyingPrice: '',
    orderLinkId: e.orderLinkId,
    side: e.side,
    indexPrice: '',
    orderId: e.orderId,
    stopOrderType: 'UNKNOWN',
    leavesQty: '0',
    execTime: String(e.execTime),
    feeCurrency: e.feeCurrency,
    isMaker: e.isMaker,
    execFee: e.execFee.toFixed(),
    feeRate: e.feeRate.toFixed(),
    execId: e.execId,
    tradeIv: '',
    blockTradeId: '',
    markPrice: e.execPrice.toFixed(),
    execPrice: e.execPrice.toFixed(),
    markIv: '',
    orderQty: e.execQty.toFixed(),
    orderPrice: e.execPrice.toFixed(),
    execValue: e.execValue.toFixed(),
    execType: e.execType,
    execQty: e.execQty.toFixed(),
    closedSize: e.closedSize.isZero() ? '' : e.closedSize.toFixed(),
    extraFees: '',
  };
}

/**
 * [position] a row of GET /v5/position/list. One-way: one row, positionIdx 0 ("side" "None" when flat, for
 * a classic account); hedge mode: a row per side, positionIdx 1 and 2.
 */
export function positionRows(book: FakeBybitBook, symbol: string, now: number) {
  const p = book.positions.get(symbol);
  const mark = book.price(symbol, 'linear');
  const leverage = String(book.leverageOf(symbol));
  const tradeMode = book.tradeMode.get(symbol) ?? 0;
  const row = (positionIdx: number, held: boolean) => ({
    positionIdx,
    riskId: 1,
    riskLimitValue: '2000000',
    symbol,
    // "`Buy`: long, `Sell`: short"; size "always positive".
    side: held && p ? p.side : 'None',
    size: held && p ? p.size.toFixed() : '0',
    avgPrice: held && p ? p.avgPrice.toFixed() : '0',
    positionValue: held && p ? p.size.times(p.avgPrice).toFixed() : '0',
    tradeMode,
    autoAddMargin: 0,
    positionStatus: 'Normal',
    leverage,
    markPrice: mark.toFixed(),
    liqPrice: held && p ? (book.liqPrice(symbol)?.toDecimalPlaces(2).toFixed() ?? '') : '',
    bustPrice: '',
    positionIM: held && p ? p.positionBalance.toFixed() : '0',
    positionMM: '0',
    positionBalance: held && p ? p.positionBalance.toFixed() : '0',
    tpslMode: 'Full',
    takeProfit: '0',
    stopLoss: '0',
    trailingStop: '0',
    unrealisedPnl:
      held && p
        ? mark
            .minus(p.avgPrice)
            .times(p.size)
            .times(p.side === 'Buy' ? 1 : -1)
            .toFixed()
        : '0',
    cumRealisedPnl: '0',
    adlRankIndicator: held && p ? 2 : 0,
    isReduceOnly: false,
    mmrSysUpdatedTime: '',
    leverageSysUpdatedTime: '',
    createdTime: String(now),
    updatedTime: String(now),
    seq: -1,
  });
  return book.hedgeMode.has(symbol) ? [row(1, true), row(2, false)] : [row(0, true)];
}

/**
 * [wallet-balance] GET /v5/account/wallet-balance, classic account: accountType SPOT (coin rows with `free`
 * and `locked`, "a unique field for Classic SPOT") or CONTRACT (walletBalance including the positions'
 * margin, availableToWithdraw).
 */
export function walletBalance(book: FakeBybitBook, accountType: string) {
  if (accountType === 'SPOT') {
    return {
      list: [
        {
          accountType: 'SPOT',
          coin: [...book.spot.entries()].map(([coin, b]) => ({
            coin,
            walletBalance: b.free.plus(b.locked).toFixed(),
            free: b.free.toFixed(),
            locked: b.locked.toFixed(),
          })),
        },
      ],
    };
  }
  const margin = [...book.positions.values()].reduce(
    (s, p) => s.plus(p.positionBalance),
    book.contractCash.times(0),
  );
  return {
    list: [
      {
        accountType: 'CONTRACT',
        coin: [
          {
            coin: 'USDT',
            equity: book.contractCash.plus(margin).toFixed(),
            walletBalance: book.contractCash.plus(margin).toFixed(),
            positionMargin: margin.toFixed(),
            availableToWithdraw: book.contractCash.toFixed(),
            orderMargin: '0',
            unrealisedPnl: '0',
            cumRealisedPnl: '0',
          },
        ],
      },
    ],
  };
}
