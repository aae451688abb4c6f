import { expect, it } from 'vitest';
import type { RequestBudget } from '../budget/request-budget';
import type { RetryPolicy } from '../ccxt/retry';
import type { Exchange, PlaceOrderInput } from '../exchange-port';
import { rejection } from './exchange-contract';
import type { FaultableDouble } from './sent-once-faults';
import { virtualBudget } from './virtual-budget';

/** A double whose clock a test may set apart from ours (the Bybit and OKX doubles). */
export interface ClockedDouble<Fault> extends FaultableDouble<Fault> {
  clockSkewMs: number;
  inject(target: string, fault: Fault, times?: number): void;
}

/**
 * The error mapping an adapter over ccxt owes the runtime on its exchange's double (docs/trading-rules.md §3):
 * a clock out of the window re-synced, a rate limit backed off then given up as retryable, refusals for lack
 * of balance or margin mapped to the port's codes and never sent twice. Registered in the caller's describe;
 * `start` sets the caller's double, which the caller closes after each case.
 */
export function adapterErrorCases<Fault, Double extends ClockedDouble<Fault>>(exchange: {
  start(): Promise<Double>;
  adapterFor(fake: Double): Exchange;
  adapterWithRetry(fake: Double, retry: Partial<RetryPolicy>, budget: RequestBudget): Exchange;
  /** The exchange's server-time path, and its code for a timestamp out of the window. */
  timePath: string;
  timestampCode: string;
  /** A skew of the double's clock the adapter's window does not cover. */
  clockSkewMs: number;
  /** The balance path a rate limit is injected on, the fault, and its code. */
  balancePath: string;
  rateLimited: Fault;
  rateLimitCode: string;
  /** What each rate-limit answer pauses the account's budget for (the exchange's reset time, or its window). */
  rateLimitWaitMs: number;
  /** The free USDT of a futures balance at start (one shared account answers the spot funds). */
  futuresFreeAtStart: string;
  /** The exchange's code for a spot order beyond the balance. */
  spotBalanceCode: string;
  /** The case of a futures order beyond the margin, and its quantity of BTC at 50,000. */
  marginCase: { title: string; quantity: string };
}) {
  it(`re-syncs the clock from ${exchange.timePath} and retries after ${exchange.timestampCode}`, async () => {
    const fake = await exchange.start();
    fake.clockSkewMs = exchange.clockSkewMs;
    const balances = await exchange.adapterFor(fake).balances('spot');
    expect(balances.find((b) => b.asset === 'USDT')?.free).toBe('10000');
    expect(fake.requests.some((r) => r.path === exchange.timePath)).toBe(true);
  });

  it(`backs off and retries a read answered ${exchange.rateLimitCode}, and gives up with a retryable error if it lasts`, async () => {
    const fake = await exchange.start();
    const delays: number[] = [];
    fake.inject(exchange.balancePath, exchange.rateLimited, 2);
    const { budget, waits } = virtualBudget();
    const adapter = exchange.adapterWithRetry(
      fake,
      { baseDelayMs: 100, sleep: async (ms) => void delays.push(ms), random: () => 0.5 },
      budget,
    );
    expect((await adapter.balances('future'))[0]).toEqual({
      asset: 'USDT',
      free: exchange.futuresFreeAtStart,
      locked: '0',
    });
    // A rate limit starts from 4 × the base, with equal jitter: 300 then 600 ms.
    expect(delays).toEqual([300, 600]);
    // Each answer also paused the account's budget for that endpoint before the retry could leave.
    expect(waits).toEqual([exchange.rateLimitWaitMs, exchange.rateLimitWaitMs]);
    fake.inject(exchange.balancePath, exchange.rateLimited, 10);
    expect(await rejection(exchange.adapterFor(fake).balances('spot'))).toMatchObject({
      kind: 'retryable',
      code: -1003,
    });
  });

  it(`maps a spot refusal for lack of balance (${exchange.spotBalanceCode}) to -2010, sent once`, async () => {
    const fake = await exchange.start();
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const sell: PlaceOrderInput = {
      market: 'spot',
      symbol: 'ETHUSDT',
      side: 'sell',
      type: 'market',
      clientOrderId: 's-1',
      quantity: '0.01',
    };
    const error = await rejection(exchange.adapterFor(fake).placeOrder(sell));
    expect(error).toMatchObject({ kind: 'rejected', code: -2010 });
    expect(fake.orderPosts()).toHaveLength(1);
  });

  it(exchange.marginCase.title, async () => {
    const fake = await exchange.start();
    fake.setPrice('BTCUSDT', 'future', '50000');
    const error = await rejection(
      exchange.adapterFor(fake).placeOrder({
        market: 'future',
        symbol: 'BTCUSDT',
        side: 'buy',
        type: 'market',
        clientOrderId: 'f-1',
        quantity: exchange.marginCase.quantity,
      }),
    );
    expect(error).toMatchObject({ kind: 'rejected', code: -2019, userMessage: 'Margin is insufficient.' });
  });
}
