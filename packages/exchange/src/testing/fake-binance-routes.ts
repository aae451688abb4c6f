import { allMarketRules, type MarketKind } from '@gridbot/shared';
import { BinanceReject, type BookOrder } from './fake-binance-book';
import type { FakeBinanceServer } from './fake-binance-server';
import {
  futuresExchangeInfo,
  futuresOrder,
  futuresTrade,
  positionRisk,
  spotExchangeInfo,
  spotOrder,
  spotTrade,
} from './fake-binance-shapes';

type Params = Record<string, string>;

export interface FakeRoute {
  signed: boolean;
  required: readonly string[];
  /** Request weight on the IP's REQUEST_WEIGHT as the docs list it, for the request's parameters. */
  weight: number | ((params: Params) => number);
  handle(params: Params): unknown;
}

const route = (
  signed: boolean,
  required: readonly string[],
  weight: FakeRoute['weight'],
  handle: (p: Params) => unknown,
): FakeRoute => ({ signed, required, weight, handle });

/** The Binance endpoints the adapter uses, answered from the fake's book. */
export function binanceRoutes(fake: FakeBinanceServer): Map<string, FakeRoute> {
  const book = fake.book;
  const newOrder = (market: MarketKind, p: Params): BookOrder =>
    book.newOrder(market, {
      symbol: p.symbol!,
      side: p.side,
      type: p.type,
      quantity: p.quantity,
      quoteOrderQty: p.quoteOrderQty,
      price: p.price,
      timeInForce: p.timeInForce,
      newClientOrderId: p.newClientOrderId,
      reduceOnly: p.reduceOnly,
      positionSide: p.positionSide,
    });
  const which = (p: Params) => ({
    ...(p.origClientOrderId ? { origClientOrderId: p.origClientOrderId } : {}),
    ...(p.orderId ? { orderId: p.orderId } : {}),
  });
  const futuresSymbols = allMarketRules()
    .filter((r) => r.market === 'future')
    .map((r) => r.symbol);

  return new Map<string, FakeRoute>([
    ['GET /api/v3/ping', route(false, [], 1, () => ({}))],
    ['GET /api/v3/time', route(false, [], 1, () => ({ serverTime: fake.now() }))],
    // [spot rest-api.md] weights: "Exchange information" 20, "Symbol price ticker" 2 for one symbol, "Account
    // information" 20, "New order" 1, "Query order" 4, "Cancel order" 1, "Current open orders" 6 for one symbol
    // and 80 without, "Account trade list" 20 without orderId and 5 with.
    ['GET /api/v3/exchangeInfo', route(false, [], 20, () => spotExchangeInfo(fake.now(), book.allRules()))],
    [
      'GET /api/v3/ticker/price',
      route(false, ['symbol'], 2, (p) => {
        book.rules(p.symbol, 'spot');
        return { symbol: p.symbol, price: book.price(p.symbol!, 'spot').toFixed(8) };
      }),
    ],
    [
      // [spot rest-api.md] "Account information (USER_DATA)".
      'GET /api/v3/account',
      route(true, [], 20, () => ({
        makerCommission: 10,
        takerCommission: 10,
        buyerCommission: 0,
        sellerCommission: 0,
        commissionRates: {
          maker: '0.00100000',
          taker: '0.00100000',
          buyer: '0.00000000',
          seller: '0.00000000',
        },
        canTrade: true,
        canWithdraw: true,
        canDeposit: true,
        brokered: false,
        requireSelfTradePrevention: false,
        preventSor: false,
        updateTime: fake.now(),
        accountType: 'SPOT',
        balances: [...book.spot.entries()].map(([asset, b]) => ({
          asset,
          free: b.free.toFixed(8),
          locked: b.locked.toFixed(8),
        })),
        permissions: ['SPOT'],
        uid: 354937868,
      })),
    ],
    [
      // [spot rest-api.md] "New order (TRADE)": newOrderRespType FULL (MARKET and LIMIT default) carries fills.
      'POST /api/v3/order',
      route(true, ['symbol', 'side', 'type'], 1, (p) => {
        const order = newOrder('spot', p);
        const full = (p.newOrderRespType ?? 'FULL') === 'FULL';
        return spotOrder(order, full ? book.spotTrades(order.symbol, String(order.orderId)) : undefined);
      }),
    ],
    // [spot rest-api.md] "Query order (USER_DATA)": the order, without fills.
    [
      'GET /api/v3/order',
      route(true, ['symbol'], 4, (p) => spotOrder(book.findOrder('spot', p.symbol!, which(p)))),
    ],
    [
      'DELETE /api/v3/order',
      route(true, ['symbol'], 1, (p) => spotOrder(book.cancel('spot', p.symbol!, which(p)))),
    ],
    [
      'GET /api/v3/openOrders',
      route(
        true,
        [],
        (p) => (p.symbol ? 6 : 80),
        (p) => book.openOrders('spot', p.symbol).map((o) => spotOrder(o)),
      ),
    ],
    [
      // [spot rest-api.md] "Account trade list (USER_DATA)": orderId "can only be used in combination with symbol".
      'GET /api/v3/myTrades',
      route(
        true,
        ['symbol'],
        (p) => (p.orderId ? 5 : 20),
        (p) => book.spotTrades(p.symbol!, p.orderId).map(spotTrade),
      ),
    ],
    [
      'POST /sapi/v1/asset/transfer',
      route(true, ['type', 'asset', 'amount'], 900, (p) => {
        book.transfer(p.type!, p.asset!, p.amount!);
        return { tranId: 13526853623 + fake.requests.length };
      }),
    ],
    // [spot rest-api.md] "Kline/Candlestick data": weight 2.
    ['GET /api/v3/klines', route(false, ['symbol', 'interval'], 2, (p) => fake.klines.answer('spot', p))],
    ['GET /fapi/v1/ping', route(false, [], 1, () => ({}))],
    // [futures] "Kline/Candlestick Data": weight by LIMIT (default 500): [1,100) 1, [100,500) 2, [500,1000] 5,
    // > 1000 10.
    [
      'GET /fapi/v1/klines',
      route(
        false,
        ['symbol', 'interval'],
        (p) => {
          const limit = Number(p.limit ?? 500);
          return limit < 100 ? 1 : limit < 500 ? 2 : limit <= 1000 ? 5 : 10;
        },
        (p) => fake.klines.answer('future', p),
      ),
    ],
    // [futures] "Get Funding Rate History": "share 500/5min/IP rate limit with GET /fapi/v1/fundingInfo", a limit
    // of its own rather than request weight (not counted by the double).
    ['GET /fapi/v1/fundingRate', route(false, [], 0, (p) => fake.fundingRates.answer(p))],
    ['GET /fapi/v1/time', route(false, [], 1, () => ({ serverTime: fake.now() }))],
    [
      'GET /fapi/v1/exchangeInfo',
      route(false, [], 1, () => futuresExchangeInfo(fake.now(), book.allRules())),
    ],
    [
      'GET /fapi/v1/ticker/price',
      route(false, ['symbol'], 1, (p) => {
        book.rules(p.symbol, 'future');
        return { symbol: p.symbol, price: book.price(p.symbol!, 'future').toFixed(), time: fake.now() };
      }),
    ],
    [
      // [futures] "Futures Account Balance V2": balance = wallet incl. isolated wallets; available = free.
      'GET /fapi/v2/balance',
      route(true, [], 5, () => {
        const isolated = [...book.positions.values()].reduce(
          (s, p) => s.plus(p.isolatedWallet),
          book.futuresWallet.times(0),
        );
        const wallet = book.futuresWallet.plus(isolated);
        return [
          {
            accountAlias: 'SgsR',
            asset: 'USDT',
            balance: wallet.toFixed(8),
            crossWalletBalance: book.futuresWallet.toFixed(8),
            crossUnPnl: '0.00000000',
            availableBalance: book.futuresAvailable().toFixed(8),
            maxWithdrawAmount: book.futuresAvailable().toFixed(8),
            marginAvailable: true,
            updateTime: fake.now(),
          },
        ];
      }),
    ],
    [
      // [futures] "New Order (TRADE)": newOrderRespType ACK by default, RESULT gives the final state.
      'POST /fapi/v1/order',
      route(true, ['symbol', 'side', 'type'], 0, (p) => futuresOrder(newOrder('future', p))),
    ],
    [
      'GET /fapi/v1/order',
      route(true, ['symbol'], 1, (p) => futuresOrder(book.findOrder('future', p.symbol!, which(p)))),
    ],
    [
      'DELETE /fapi/v1/order',
      route(true, ['symbol'], 1, (p) => futuresOrder(book.cancel('future', p.symbol!, which(p)))),
    ],
    [
      'GET /fapi/v1/openOrders',
      // [futures] "Current All Open Orders": 1 for a single symbol, 40 when the symbol parameter is omitted.
      route(
        true,
        [],
        (p) => (p.symbol ? 1 : 40),
        (p) => book.openOrders('future', p.symbol).map(futuresOrder),
      ),
    ],
    [
      // [futures] "Account Trade List (USER_DATA)": commission, commissionAsset, realizedPnl per trade.
      'GET /fapi/v1/userTrades',
      route(true, ['symbol'], 5, (p) => book.futuresTrades(p.symbol!, p.orderId).map(futuresTrade)),
    ],
    [
      // [futures] "User's Force Orders (USER_DATA)": weight 20 with symbol, 50 without; the orders the
      // exchange sent itself to close the account's positions, in the Query Order shape.
      'GET /fapi/v1/forceOrders',
      route(
        true,
        [],
        (p) => (p.symbol ? 20 : 50),
        (p) => {
          if (p.symbol) book.rules(p.symbol, 'future');
          const from = p.startTime ? Number(p.startTime) : undefined;
          return book.forceOrders(p.symbol, from).map((o) => ({ ...futuresOrder(o), timeInForce: 'IOC' }));
        },
      ),
    ],
    [
      'POST /fapi/v1/leverage',
      route(true, ['symbol', 'leverage'], 1, (p) => {
        book.rules(p.symbol, 'future');
        book.setLeverage(p.symbol!, Number(p.leverage));
        return { leverage: Number(p.leverage), maxNotionalValue: '250000', symbol: p.symbol };
      }),
    ],
    [
      'POST /fapi/v1/marginType',
      route(true, ['symbol', 'marginType'], 1, (p) => {
        book.setMarginType(p.symbol!, p.marginType!);
        return { code: 200, msg: 'success' };
      }),
    ],
    // [futures] "Get Current Position Mode (USER_DATA)": "true": Hedge Mode; "false": One-way Mode.
    [
      'GET /fapi/v1/positionSide/dual',
      route(true, [], 30, () => ({ dualSidePosition: book.dualSidePosition })),
    ],
    // [futures] "Position Information V2 (USER_DATA)", GET /fapi/v2/positionRisk (weight 5): `symbol` is
    // optional; without it every symbol of the account is answered, each a row (positionAmt 0 when flat),
    // which is how the adapter's positions() lists the account's open longs.
    [
      'GET /fapi/v2/positionRisk',
      route(true, [], 5, (p) => {
        if (p.symbol) book.rules(p.symbol, 'future');
        return (p.symbol ? [p.symbol] : futuresSymbols).map((s) => positionRisk(book, s, fake.now()));
      }),
    ],
  ]);
}

export { BinanceReject };
