import { type MarketKind, money, SYMBOLS } from '@gridbot/shared';
import { ExchangeError } from '../exchange-error';
import type { Order, PlaceOrderInput } from '../exchange-port';
import type { FakeBinanceServer } from './fake-binance-server';
import {
  futuresExchangeInfo,
  futuresOrder,
  positionRisk,
  spotExchangeInfo,
  spotOrder,
} from './fake-binance-shapes';

type Params = Record<string, string>;

export interface FakeRoute {
  signed: boolean;
  required: readonly string[];
  handle(params: Params): Promise<unknown>;
}

const route = (
  signed: boolean,
  required: readonly string[],
  handle: (p: Params) => Promise<unknown>,
): FakeRoute => ({
  signed,
  required,
  handle,
});

/** The Binance endpoints the adapter uses, answered from the fake's paper account. */
export function binanceRoutes(fake: FakeBinanceServer): Map<string, FakeRoute> {
  const account = fake.account;

  const place = async (market: MarketKind, p: Params): Promise<Order> => {
    fake.rules(p.symbol, market);
    const type = p.type === 'LIMIT' ? 'limit' : p.type === 'MARKET' ? 'market' : undefined;
    if (!type) throw new ExchangeError('rejected', -1116, 'Invalid orderType.');
    if (type === 'limit' && (!p.price || !p.timeInForce)) {
      throw new ExchangeError(
        'rejected',
        -1102,
        "Mandatory parameter 'price' was not sent, was empty/null, or malformed.",
      );
    }
    const clientOrderId = p.newClientOrderId ?? `fake-${Date.now()}`;
    const existing = await account.fetchOrder(market, p.symbol!, clientOrderId);
    if (existing.found) {
      throw market === 'spot'
        ? new ExchangeError('rejected', -2010, 'Duplicate order sent.')
        : new ExchangeError('rejected', -4116, 'ClientOrderId is duplicated.');
    }
    const input: PlaceOrderInput = {
      market,
      symbol: p.symbol!,
      side: p.side === 'SELL' ? 'sell' : 'buy',
      type,
      clientOrderId,
      ...(p.quantity ? { quantity: p.quantity } : {}),
      ...(p.quoteOrderQty ? { quoteAmount: p.quoteOrderQty } : {}),
      ...(p.price ? { price: p.price } : {}),
    };
    return account.placeOrder(input);
  };

  const findOrder = async (market: MarketKind, p: Params): Promise<Order | undefined> => {
    if (!p.origClientOrderId && !p.orderId) {
      throw new ExchangeError(
        'rejected',
        -1102,
        "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!",
      );
    }
    if (p.origClientOrderId) {
      const found = await account.fetchOrder(market, p.symbol!, p.origClientOrderId);
      return found.found ? found.order : undefined;
    }
    const open = await account.openOrders(market, p.symbol);
    return open.find((o) => String(fake.orderId(o.exchangeOrderId)) === p.orderId);
  };

  const spot = (order: Order) => spotOrder(order, fake.orderId(order.exchangeOrderId));
  const futures = (order: Order) => {
    const id = fake.orderId(order.exchangeOrderId);
    fake.futuresOrders.set(id, order);
    return futuresOrder(order, id);
  };
  const noSuchOrder = () => new ExchangeError('rejected', -2013, 'Order does not exist.');

  return new Map<string, FakeRoute>([
    ['GET /api/v3/ping', route(false, [], async () => ({}))],
    ['GET /api/v3/time', route(false, [], async () => ({ serverTime: fake.now() }))],
    ['GET /api/v3/exchangeInfo', route(false, [], async () => spotExchangeInfo(fake.now()))],
    [
      'GET /api/v3/ticker/price',
      route(false, ['symbol'], async (p) => {
        fake.rules(p.symbol, 'spot');
        return { symbol: p.symbol, price: fake.feed.lastPrice(p.symbol!, 'spot') };
      }),
    ],
    [
      'GET /api/v3/account',
      route(true, [], async () => ({
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
        balances: (await account.balances('spot')).map((b) => ({
          asset: b.asset,
          free: money(b.free).toFixed(8),
          locked: money(b.locked).toFixed(8),
        })),
        permissions: ['SPOT'],
        uid: 354937868,
      })),
    ],
    [
      'POST /api/v3/order',
      route(true, ['symbol', 'side', 'type'], async (p) => spot(await place('spot', p))),
    ],
    [
      'GET /api/v3/order',
      route(true, ['symbol'], async (p) => {
        const order = await findOrder('spot', p);
        if (!order) throw noSuchOrder();
        return spot(order);
      }),
    ],
    [
      'DELETE /api/v3/order',
      route(true, ['symbol'], async (p) => {
        const order = await findOrder('spot', p);
        return spot(await account.cancelOrder('spot', p.symbol!, order?.clientOrderId ?? '\u0000'));
      }),
    ],
    [
      'GET /api/v3/openOrders',
      route(true, [], async (p) => (await account.openOrders('spot', p.symbol)).map(spot)),
    ],
    [
      'POST /sapi/v1/asset/transfer',
      route(true, ['type', 'asset', 'amount'], async (p) => {
        if (p.asset !== 'USDT') throw new ExchangeError('rejected', -1102, 'Only USDT in this fake.');
        const direction =
          p.type === 'MAIN_UMFUTURE'
            ? 'spot_to_future'
            : p.type === 'UMFUTURE_MAIN'
              ? 'future_to_spot'
              : undefined;
        if (!direction) throw new ExchangeError('rejected', -1102, 'Illegal transfer type.');
        const result = await account.transfer(direction, p.amount!);
        return { tranId: Number(result.transferId.replace(/\D/g, '').slice(-12)) };
      }),
    ],
    ['GET /fapi/v1/ping', route(false, [], async () => ({}))],
    ['GET /fapi/v1/time', route(false, [], async () => ({ serverTime: fake.now() }))],
    ['GET /fapi/v1/exchangeInfo', route(false, [], async () => futuresExchangeInfo(fake.now()))],
    [
      'GET /fapi/v1/ticker/price',
      route(false, ['symbol'], async (p) => {
        fake.rules(p.symbol, 'future');
        return { symbol: p.symbol, price: fake.feed.lastPrice(p.symbol!, 'future'), time: fake.now() };
      }),
    ],
    [
      'GET /fapi/v2/balance',
      route(true, [], async () => {
        const usdt = (await account.balances('future')).find((b) => b.asset === 'USDT');
        const free = money(usdt?.free ?? 0);
        const total = free.plus(usdt?.locked ?? 0);
        return [
          {
            accountAlias: 'SgsR',
            asset: 'USDT',
            balance: total.toFixed(8),
            crossWalletBalance: total.toFixed(8),
            crossUnPnl: '0.00000000',
            availableBalance: free.toFixed(8),
            maxWithdrawAmount: free.toFixed(8),
            marginAvailable: true,
            updateTime: fake.now(),
          },
        ];
      }),
    ],
    [
      'POST /fapi/v1/order',
      route(true, ['symbol', 'side', 'type'], async (p) => {
        if (p.side === 'SELL' && p.reduceOnly !== 'true') {
          throw new ExchangeError('rejected', -2022, 'ReduceOnly Order is rejected.');
        }
        return futures(await place('future', p));
      }),
    ],
    [
      'GET /fapi/v1/order',
      route(true, ['symbol'], async (p) => {
        const order = await findOrder('future', p);
        if (!order) throw noSuchOrder();
        return futures(order);
      }),
    ],
    [
      'DELETE /fapi/v1/order',
      route(true, ['symbol'], async (p) => {
        const order = await findOrder('future', p);
        return futures(await account.cancelOrder('future', p.symbol!, order?.clientOrderId ?? '\u0000'));
      }),
    ],
    [
      'GET /fapi/v1/openOrders',
      route(true, [], async (p) => (await account.openOrders('future', p.symbol)).map(futures)),
    ],
    [
      'GET /fapi/v1/userTrades',
      route(true, ['symbol'], async (p) => {
        const order = fake.futuresOrders.get(Number(p.orderId));
        if (!order || order.filledQuantity === '0') return [];
        return [
          {
            buyer: order.side === 'buy',
            commission: order.fee,
            commissionAsset: order.feeAsset,
            id: Number(p.orderId),
            maker: order.type === 'limit',
            orderId: Number(p.orderId),
            price: order.averagePrice,
            qty: order.filledQuantity,
            quoteQty: order.filledQuote,
            realizedPnl: '0',
            side: order.side.toUpperCase(),
            positionSide: 'BOTH',
            symbol: order.symbol,
            time: order.updatedMs,
          },
        ];
      }),
    ],
    [
      'POST /fapi/v1/leverage',
      route(true, ['symbol', 'leverage'], async (p) => {
        await account.setLeverage(p.symbol!, Number(p.leverage));
        return { leverage: Number(p.leverage), maxNotionalValue: '250000', symbol: p.symbol };
      }),
    ],
    [
      'POST /fapi/v1/marginType',
      route(true, ['symbol', 'marginType'], async (p) => {
        if (p.marginType !== 'ISOLATED')
          throw new ExchangeError('rejected', -4046, 'No need to change margin type.');
        if (fake.marginTypes.has(p.symbol!))
          throw new ExchangeError('rejected', -4046, 'No need to change margin type.');
        fake.marginTypes.add(p.symbol!);
        return { code: 200, msg: 'success' };
      }),
    ],
    [
      'GET /fapi/v2/positionRisk',
      route(true, [], async (p) => {
        const symbols = p.symbol ? [p.symbol] : SYMBOLS;
        const rows = [];
        for (const symbol of symbols) {
          const rules = fake.rules(symbol, 'future');
          const position = await account.position(symbol);
          rows.push(positionRisk(rules, position, 1, fake.feed.lastPrice(symbol, 'future') ?? '0'));
        }
        return rows;
      }),
    ],
  ]);
}
