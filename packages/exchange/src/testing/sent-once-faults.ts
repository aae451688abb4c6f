import { expect, it } from 'vitest';
import type { Exchange, MarketKind, PlaceOrderInput } from '../exchange-port';
import { eventually, rejection, sendOnceThenAsk } from './exchange-contract';
import type { LateOrderFault, LoopbackRecordedRequest } from './loopback-faults';

/** A loopback double of an exchange whose order placements a test can fault (the Bybit and OKX doubles). */
export interface FaultableDouble<Fault> {
  setPrice(symbol: string, market: MarketKind, price: string): void;
  inject(target: string, fault: Fault): void;
  orderPosts(): LoopbackRecordedRequest<string>[];
  readonly requests: LoopbackRecordedRequest<string>[];
}

/** A spot market buy of 0.01 BTC at 50,000, under the client order id `bot1-1`. */
export const FAULTED_BUY: PlaceOrderInput = {
  market: 'spot',
  symbol: 'BTCUSDT',
  side: 'buy',
  type: 'market',
  clientOrderId: 'bot1-1',
  quantity: '0.01',
};

/**
 * The cases of an order sent once, then asked about (docs/trading-rules.md §3), on an exchange's double: a
 * lost answer after execution, an order the engine takes late, and faults before execution. Registered in the
 * caller's describe; `start` sets the caller's double, which the caller closes after each case.
 */
export function sentOnceFaultCases<
  Fault extends { kind: string },
  Double extends FaultableDouble<Fault>,
>(exchange: {
  start(): Promise<Double>;
  adapterFor(fake: Double): Exchange;
  /** The adapter whose late-order window the double's late orders fall in, and that window. */
  lateAdapterFor(fake: Double): Exchange & { lateOrderWindowMs: number };
  lateOrderWindowMs: number;
  /** "METHOD /path" of an order placement, and the field carrying the client order id there. */
  orderTarget: string;
  idField: string;
  /** The client order id of FAULTED_BUY as the exchange has it. */
  sentId: string;
  executedWithId(fake: Double, sentId: string): unknown[];
  /** The path of the exchange's fills, where the fee of an order comes from. */
  fillsPath: string;
  freeBtc(fake: Double): string | undefined;
  executed: [string, Fault][];
  notExecuted: [string, Fault][];
  lateOrder(answer: LateOrderFault['answer']): Fault;
}) {
  const { orderTarget, sentId } = exchange;
  const started = async () => {
    const fake = await exchange.start();
    fake.setPrice('BTCUSDT', 'spot', '50000');
    return fake;
  };

  it.each(exchange.executed)(
    '%s: unknown, the look-up finds the fill with its fee, one order in all',
    async (_, fault) => {
      const fake = await started();
      fake.inject(orderTarget, fault);
      const adapter = exchange.adapterFor(fake);
      expect((await rejection(adapter.placeOrder(FAULTED_BUY))).kind).toBe('unknown');
      const order = await sendOnceThenAsk(adapter, FAULTED_BUY);
      expect(fake.orderPosts()).toHaveLength(1);
      expect(exchange.executedWithId(fake, sentId)).toHaveLength(1);
      // The fee is 0.1 % of the 0.01 BTC bought, taken from the exchange's fills.
      expect(order).toMatchObject({
        status: 'FILLED',
        filledQuantity: '0.01',
        filledQuote: '500',
        fee: '0.00001',
        feeAsset: 'BTC',
      });
      expect(fake.requests.some((r) => r.path === exchange.fillsPath)).toBe(true);
      expect(exchange.freeBtc(fake)).toBe('0.00999');
    },
  );

  it.each([
    ['HTTP 502', 'error'],
    ['no answer', 'drop'],
  ] as const)(
    '%s before the engine had it: "none" until it executes within the window, one order',
    async (_, answer) => {
      const fake = await started();
      fake.inject(orderTarget, exchange.lateOrder(answer));
      const adapter = exchange.lateAdapterFor(fake);
      expect(adapter.lateOrderWindowMs).toBe(exchange.lateOrderWindowMs);
      expect((await rejection(adapter.placeOrder(FAULTED_BUY))).kind).toBe('unknown');
      expect(await adapter.fetchOrder('spot', 'BTCUSDT', 'bot1-1')).toEqual({ found: false });
      await eventually(async () =>
        expect(await adapter.fetchOrder('spot', 'BTCUSDT', 'bot1-1')).toMatchObject({
          found: true,
          order: { status: 'FILLED', filledQuantity: '0.01' },
        }),
      );
      expect(fake.orderPosts()).toHaveLength(1);
    },
  );

  it.each(exchange.notExecuted)(
    `%s: looked up, none, sent again with the same ${exchange.idField}: one order`,
    async (_, fault) => {
      const fake = await started();
      fake.inject(orderTarget, fault);
      const order = await sendOnceThenAsk(exchange.adapterFor(fake), FAULTED_BUY);
      expect(order.status).toBe('FILLED');
      expect(exchange.executedWithId(fake, sentId)).toHaveLength(1);
      const posts = fake.requests.filter((r) => `${r.method} ${r.path}` === orderTarget);
      expect(posts.map((r) => r.params[exchange.idField])).toEqual([sentId, sentId]);
    },
  );
}
