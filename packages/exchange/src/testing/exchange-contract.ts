import type { MarketKind } from '@gridbot/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExchangeError } from '../exchange-error';
import type { Balance, Exchange, Order, PlaceOrderInput } from '../exchange-port';

/** What the contract suite needs from an implementation under test. */
export interface ExchangeContractHarness {
  /** A fresh account holding 10,000 USDT spot and nothing else. */
  exchange: Exchange;
  /** Moves the market: market orders then fill at `price`, and open limit orders that cross fill. */
  setPrice(symbol: string, market: MarketKind, price: string): Promise<void>;
  close(): Promise<void>;
  /**
   * One account holds the USDT of spot and futures alike (OKX's Trading account): both wallets show the same
   * USDT and a transfer between them moves nothing, though it still refuses more than is free.
   */
  sharedWallet?: boolean;
}

/**
 * Polls `check` until it stops throwing (tick-driven fills are asynchronous). It answers as soon as the check
 * passes, so the deadline costs a passing test nothing; it is long because on a busy 2-core machine a worker's
 * round trip through the database can take seconds.
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Free amount of an asset in a wallet ('0' when absent). */
export async function freeOf(exchange: Exchange, wallet: MarketKind, asset: string): Promise<string> {
  const balances: Balance[] = await exchange.balances(wallet);
  return balances.find((b) => b.asset === asset)?.free ?? '0';
}

/** The `ExchangeError` a call fails with (anything else fails the test). */
export async function rejection(promise: Promise<unknown>): Promise<ExchangeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ExchangeError) return error;
    throw error;
  }
  throw new Error('expected the call to be rejected');
}

/**
 * What the runtime does with an order (docs/trading-rules.md §3): send once; when the outcome is unknown, look
 * it up by client order id until the venue answers, and send again (same id) only when it says there is no
 * such order.
 */
export async function sendOnceThenAsk(exchange: Exchange, input: PlaceOrderInput): Promise<Order> {
  try {
    return await exchange.placeOrder(input);
  } catch (error) {
    if (!(error instanceof ExchangeError) || error.kind !== 'unknown') throw error;
  }
  for (;;) {
    const found = await exchange
      .fetchOrder(input.market, input.symbol, input.clientOrderId)
      .catch(() => undefined);
    if (found?.found) return found.order;
    if (found && !found.found) return exchange.placeOrder(input);
  }
}

const num = (value: string | undefined) => Number(value);

/**
 * The part of a buy's fee taken from the coin bought. Binance charges a spot commission in the asset the
 * trade credits (the base on a buy); the paper exchange charges USDT (docs/trading-rules.md §2.1). The books must follow
 * whichever the venue reports.
 */
const baseFeeOf = (order: { fee: string; feeAsset: string }) =>
  order.feeAsset === 'USDT' ? 0 : num(order.fee);
const quoteFeeOf = (order: { fee: string; feeAsset: string }) =>
  order.feeAsset === 'USDT' ? num(order.fee) : 0;

/**
 * The one exchange contract (docs/contributing.md §6): every implementation of `Exchange` (PaperExchange, the
 * Binance adapter on the loopback fake server) must pass it with the same codes and messages.
 */
export function exchangeContract(name: string, setup: () => Promise<ExchangeContractHarness>): void {
  describe(`Exchange contract: ${name}`, () => {
    let h: ExchangeContractHarness;
    let ex: Exchange;

    beforeEach(async () => {
      h = await setup();
      ex = h.exchange;
      await h.setPrice('BTCUSDT', 'spot', '50000');
      await h.setPrice('BTCUSDT', 'future', '50000');
      await h.setPrice('ETHUSDT', 'spot', '2000');
    });
    afterEach(async () => {
      await h.close();
    });

    /** Moves `amount` USDT to futures; the futures wallet's free USDT after it. */
    const fundFutures = async (amount: string) => {
      await ex.transfer('spot_to_future', amount);
      return num(await freeOf(ex, 'future', 'USDT'));
    };

    it('starts with 10,000 USDT spot and an empty futures wallet', async () => {
      expect(num(await freeOf(ex, 'spot', 'USDT'))).toBe(10_000);
      expect(num(await freeOf(ex, 'future', 'USDT'))).toBe(h.sharedWallet ? 10_000 : 0);
    });

    it('fills a market buy at the last price, rounds the quantity down to the step and charges 0.1 %', async () => {
      const order = await ex.placeOrder({
        market: 'spot',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'c-mkt-1',
        quantity: '0.0123456',
      });
      expect(order.status).toBe('FILLED');
      expect(num(order.quantity)).toBe(0.01234);
      expect(num(order.filledQuote)).toBe(617);
      // 0.1 % of what was received: 0.617 USDT, or 0.00001234 BTC when the venue takes it from the coin.
      if (order.feeAsset === 'USDT') expect(num(order.fee)).toBeCloseTo(0.617, 8);
      else expect(order).toMatchObject({ feeAsset: 'BTC', fee: '0.00001234' });
      expect(num(await freeOf(ex, 'spot', 'BTC'))).toBeCloseTo(0.01234 - baseFeeOf(order), 12);
      expect(num(await freeOf(ex, 'spot', 'USDT'))).toBeCloseTo(10_000 - 617 - quoteFeeOf(order), 8);
    });

    it('buys for a quote amount: quantity = floor(quote / price / step) × step', async () => {
      const order = await ex.placeOrder({
        market: 'spot',
        symbol: 'ETHUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'c-quote-1',
        quoteAmount: '100',
      });
      expect(num(order.quantity)).toBe(0.05);
      expect(num(order.filledQuote)).toBe(100);
    });

    it('rounds a limit price to the tick size', async () => {
      const order = await ex.placeOrder({
        market: 'spot',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'limit',
        clientOrderId: 'c-tick-1',
        quantity: '0.001',
        price: '40000.006',
      });
      expect(order.status).toBe('NEW');
      expect(num(order.price)).toBe(40000.01);
    });

    it('rejects an order below the minimum notional with Binance’s filter failure', async () => {
      const error = await rejection(
        ex.placeOrder({
          market: 'spot',
          symbol: 'BTCUSDT',
          side: 'buy',
          type: 'market',
          clientOrderId: 'c-small',
          quantity: '0.00005',
        }),
      );
      expect(error.code).toBe(-1013);
      expect(error.kind).toBe('rejected');
      expect(error.userMessage).toBe('Filter failure: NOTIONAL');
    });

    it('rejects a quantity that rounds to zero with LOT_SIZE', async () => {
      const error = await rejection(
        ex.placeOrder({
          market: 'spot',
          symbol: 'BTCUSDT',
          side: 'buy',
          type: 'market',
          clientOrderId: 'c-lot',
          quantity: '0.000001',
        }),
      );
      expect(error.code).toBe(-1013);
      expect(error.userMessage).toBe('Filter failure: LOT_SIZE');
    });

    it('rejects an order the balance cannot pay with -2010', async () => {
      const error = await rejection(
        ex.placeOrder({
          market: 'spot',
          symbol: 'BTCUSDT',
          side: 'buy',
          type: 'market',
          clientOrderId: 'c-poor',
          quantity: '1',
        }),
      );
      expect(error.code).toBe(-2010);
      expect(error.userMessage).toBe('Account has insufficient balance for requested action.');
      expect(num(await freeOf(ex, 'spot', 'USDT'))).toBe(10_000);
    });

    it('returns the original order for a repeated client order id and never fills twice', async () => {
      const input = {
        market: 'spot',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'bot7-1',
        quantity: '0.01',
      } as const;
      const first = await ex.placeOrder(input);
      await h.setPrice('BTCUSDT', 'spot', '51000');
      const again = await ex.placeOrder(input);
      expect(again.exchangeOrderId).toBe(first.exchangeOrderId);
      expect(num(again.averagePrice)).toBe(50000);
      expect(num(await freeOf(ex, 'spot', 'BTC'))).toBeCloseTo(0.01 - baseFeeOf(first), 12);
    });

    it('tells an unknown client order id (found: false) from a known one', async () => {
      expect(await ex.fetchOrder('spot', 'BTCUSDT', 'never-sent')).toEqual({ found: false });
      await ex.placeOrder({
        market: 'spot',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'c-known',
        quantity: '0.001',
      });
      const found = await ex.fetchOrder('spot', 'BTCUSDT', 'c-known');
      expect(found.found && found.order.status).toBe('FILLED');
    });

    it('fills a resting limit buy when the price crosses it, at the limit price', async () => {
      const placed = await ex.placeOrder({
        market: 'spot',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'limit',
        clientOrderId: 'c-lim-1',
        quantity: '0.01',
        price: '49000',
      });
      // The fee comes from the coin bought: the order holds its quote only.
      expect(placed.status).toBe('NEW');
      expect(num(await freeOf(ex, 'spot', 'USDT'))).toBeCloseTo(10_000 - 490, 8);
      await h.setPrice('BTCUSDT', 'spot', '49500');
      expect((await ex.openOrders('spot', 'BTCUSDT')).map((o) => o.clientOrderId)).toEqual(['c-lim-1']);
      await h.setPrice('BTCUSDT', 'spot', '48990');
      const filled = await eventually(async () => {
        const result = await ex.fetchOrder('spot', 'BTCUSDT', 'c-lim-1');
        if (!result.found || result.order.status !== 'FILLED') throw new Error('not filled yet');
        return result.order;
      });
      expect(num(filled.averagePrice)).toBe(49000);
      expect(num(await freeOf(ex, 'spot', 'BTC'))).toBeCloseTo(0.01 - baseFeeOf(filled), 12);
      expect(num(await freeOf(ex, 'spot', 'USDT'))).toBeCloseTo(10_000 - 490 - quoteFeeOf(filled), 8);
    });

    it('cancels an open order, releases its funds and refuses a second cancel with -2011', async () => {
      await ex.placeOrder({
        market: 'spot',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'limit',
        clientOrderId: 'c-cxl',
        quantity: '0.01',
        price: '45000',
      });
      const cancelled = await ex.cancelOrder('spot', 'BTCUSDT', 'c-cxl');
      expect(cancelled.status).toBe('CANCELED');
      expect(num(await freeOf(ex, 'spot', 'USDT'))).toBe(10_000);
      expect((await rejection(ex.cancelOrder('spot', 'BTCUSDT', 'c-cxl'))).code).toBe(-2011);
    });

    it('transfers USDT spot → futures and back, and refuses more than the free balance', async () => {
      if (h.sharedWallet) {
        await ex.transfer('spot_to_future', '100');
        expect(await ex.usdtFree()).toEqual({ spot: '10000', future: '10000' });
        expect((await rejection(ex.transfer('future_to_spot', '10001'))).code).toBe(-2010);
        return;
      }
      await ex.transfer('spot_to_future', '100');
      expect(num(await freeOf(ex, 'spot', 'USDT'))).toBe(9_900);
      expect(num(await freeOf(ex, 'future', 'USDT'))).toBe(100);
      await ex.transfer('future_to_spot', '40');
      expect(num(await freeOf(ex, 'future', 'USDT'))).toBe(60);
      const error = await rejection(ex.transfer('future_to_spot', '61'));
      expect(error.code).toBe(-2010);
      expect(num(await freeOf(ex, 'spot', 'USDT'))).toBe(9_940);
      const both = await ex.usdtFree();
      expect([num(both.spot), num(both.future)]).toEqual([9_940, 60]);
    });

    it('swaps a spot asset to USDT at the last price', async () => {
      const bought = await ex.placeOrder({
        market: 'spot',
        symbol: 'ETHUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'c-eth',
        quantity: '0.5',
      });
      await h.setPrice('ETHUSDT', 'spot', '2100');
      const result = await ex.convertToUsdt('ETH');
      // Everything held is sold: 0.5 ETH less a fee taken in ETH (0.4995 on Binance).
      const held = 0.5 - baseFeeOf(bought);
      expect(num(result.soldQuantity)).toBeCloseTo(held, 12);
      expect(num(result.usdtReceived)).toBeCloseTo(held * 2100 * 0.999, 8);
      expect(num(await freeOf(ex, 'spot', 'ETH'))).toBe(0);
    });

    it('opens an isolated long with leverage and reports entry and liquidation price', async () => {
      const funded = await fundFutures('1000');
      await ex.setLeverage('BTCUSDT', 5);
      await ex.placeOrder({
        market: 'future',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'f-1',
        quantity: '0.01',
      });
      const position = await ex.position('BTCUSDT');
      expect(position).toMatchObject({
        symbol: 'BTCUSDT',
        side: 'long',
        leverage: 5,
        marginType: 'isolated',
      });
      expect(num(position?.quantity)).toBe(0.01);
      expect(num(position?.entryPrice)).toBe(50000);
      expect(num(position?.isolatedMargin)).toBeCloseTo(100, 6);
      // docs/trading-rules.md §2.2: (Q·E − M) / (Q·(1 − m)) with m = 0.004 for BTCUSDT → (500 − 100) / (0.01 × 0.996)
      expect(num(position?.liquidationPrice)).toBeCloseTo(40160.64, 1);
      expect(num(await freeOf(ex, 'future', 'USDT'))).toBeCloseTo(funded - 100 - 0.25, 6);
    });

    it('closes a long with a sell and books the profit less fees', async () => {
      const funded = await fundFutures('1000');
      await ex.setLeverage('BTCUSDT', 2);
      await ex.placeOrder({
        market: 'future',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'f-open',
        quantity: '0.01',
      });
      await h.setPrice('BTCUSDT', 'future', '51000');
      await ex.placeOrder({
        market: 'future',
        symbol: 'BTCUSDT',
        side: 'sell',
        type: 'market',
        clientOrderId: 'f-close',
        quantity: '0.01',
      });
      expect(await ex.position('BTCUSDT')).toBeUndefined();
      // +10 profit, fees 0.25 + 0.255
      expect(num(await freeOf(ex, 'future', 'USDT'))).toBeCloseTo(funded + 10 - 0.25 - 0.255, 6);
    });

    it('lists every open long of the account, and a reduce-only market sell closes one of them', async () => {
      await h.setPrice('ETHUSDT', 'future', '2000');
      await ex.transfer('spot_to_future', '1000');
      await ex.setLeverage('BTCUSDT', 5);
      await ex.setLeverage('ETHUSDT', 3);
      const open = (symbol: string, clientOrderId: string, quantity: string) =>
        ex.placeOrder({ market: 'future', symbol, side: 'buy', type: 'market', clientOrderId, quantity });
      await open('BTCUSDT', 'p-btc', '0.01');
      await open('ETHUSDT', 'p-eth', '0.09');
      const listed = await ex.positions();
      expect(listed.map((p) => p.symbol).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
      const eth = listed.find((p) => p.symbol === 'ETHUSDT');
      expect(eth).toMatchObject({ side: 'long', leverage: 3, marginType: 'isolated' });
      expect(num(eth?.quantity)).toBe(0.09);
      expect(num(eth?.isolatedMargin)).toBeCloseTo(60, 6);
      expect(num(eth?.liquidationPrice)).toBeGreaterThan(0);
      await ex.placeOrder({
        market: 'future',
        symbol: 'ETHUSDT',
        side: 'sell',
        type: 'market',
        clientOrderId: 'p-eth-close',
        quantity: '0.09',
        reduceOnly: true,
      });
      expect((await ex.positions()).map((p) => p.symbol)).toEqual(['BTCUSDT']);
    });

    it('rejects a reduce-only futures sell without a long to reduce', async () => {
      await ex.transfer('spot_to_future', '100');
      const error = await rejection(
        ex.placeOrder({
          market: 'future',
          symbol: 'BTCUSDT',
          side: 'sell',
          type: 'market',
          clientOrderId: 'f-short',
          quantity: '0.01',
          reduceOnly: true,
        }),
      );
      expect(error.code).toBe(-2022);
    });

    it('liquidates the long when the mark price reaches the liquidation price; the margin is lost', async () => {
      const funded = await fundFutures('1000');
      await ex.setLeverage('BTCUSDT', 10);
      await ex.placeOrder({
        market: 'future',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'f-liq',
        quantity: '0.01',
      });
      const liq = num((await ex.position('BTCUSDT'))?.liquidationPrice);
      expect(liq).toBeGreaterThan(45000);
      await h.setPrice('BTCUSDT', 'future', String(Math.floor(liq + 50)));
      expect(await ex.position('BTCUSDT')).toBeDefined();
      await h.setPrice('BTCUSDT', 'future', String(Math.floor(liq - 10)));
      await eventually(async () => expect(await ex.position('BTCUSDT')).toBeUndefined());
      expect(num(await freeOf(ex, 'future', 'USDT'))).toBeCloseTo(funded - 50 - 0.25, 6);
    });

    it('rejects a leverage outside 1–10', async () => {
      expect((await rejection(ex.setLeverage('BTCUSDT', 11))).code).toBe(-4028);
    });
  });
}
