import type { ChildProcess } from 'node:child_process';
import { FairRequestBudget, RedisBudgetCounter, type RequestBudget } from '@gridbot/exchange';
import { BinanceExchange, type BinanceLimits } from '@gridbot/exchange/binance';
import { FakeBinanceServer } from '@gridbot/exchange/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/free-port';
import { startRedisServer } from '../testing/redis-server';

// Two "worker" processes' budgets on one private redis-server, 50 accounts trading on the Binance double. The
// double enforces Binance's rules (weight per IP per window, orders per account per window) with small figures
// so the test takes seconds: 1800 weight per 6 s instead of 6000 per minute, 10 orders per 2 s instead of 50 per
// 10 s. The budgets spend 90 % of each, as in production.
const DOUBLE_LIMITS = {
  spotWeight: { limit: 1800, windowMs: 6_000 },
  spotOrders: { limit: 10, windowMs: 2_000 },
};
const BUDGET_LIMITS: Partial<BinanceLimits> = {
  spotWeight: [{ limit: 1620, windowMs: 6_000 }],
  spotOrders: [{ limit: 9, windowMs: 2_000 }],
};
const ACCOUNTS = 50;
const ORDERS_PER_CALM_ACCOUNT = 2;
const BURST_READS = 150;
const BURST_ORDERS = 20;

let server: ChildProcess;
const clients: Redis[] = [];
let fake: FakeBinanceServer;

beforeAll(async () => {
  const port = await freePort();
  server = await startRedisServer(port);
  for (let i = 0; i < 2; i += 1) clients.push(new Redis(`redis://127.0.0.1:${port}`));
  fake = await FakeBinanceServer.start({ apiKey: 'k0', secret: 's0', limits: DOUBLE_LIMITS });
  for (let a = 1; a < ACCOUNTS; a += 1) fake.addKey(`k${a}`, `s${a}`);
  fake.setPrice('BTCUSDT', 'spot', '50000');
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  server?.kill('SIGKILL');
  await fake?.close();
});

/** A worker's budget: its own scheduler over the Redis counts every worker of the deployment shares. */
const workerBudget = (redis: Redis): RequestBudget =>
  new FairRequestBudget(new RedisBudgetCounter(redis, 'gridbot:budget-test:'));

const adapter = (account: number, budget: RequestBudget) =>
  new BinanceExchange({
    apiKey: `k${account}`,
    secret: `s${account}`,
    baseUrl: fake.url,
    budget,
    limits: BUDGET_LIMITS,
    retry: { sleep: async () => {}, random: () => 0.5 },
    timeoutMs: 10_000,
  });

/** A resting grid buy far under the market (it locks 20 USDT of the double's one book). */
const gridBuy = (account: number, n: number) => ({
  market: 'spot' as const,
  symbol: 'BTCUSDT',
  side: 'buy' as const,
  type: 'limit' as const,
  price: '20000',
  quantity: '0.001',
  clientOrderId: `acct${account}-${n}`,
});

describe('request budgets shared by two workers through Redis', () => {
  it("50 accounts' bots, one bursting: the double never answers 429/418, stays under its limits, and the calm accounts finish long before the burst", async () => {
    const budgets = [workerBudget(clients[0] as Redis), workerBudget(clients[1] as Redis)];
    const doneAt = new Map<number, number>();
    let burstReadsDone = 0;
    let burstReadsWhenCalmDone = -1;
    const startMs = Date.now();

    // Account 0 bursts on worker 0: 150 balance reads (weight 20 each: 3,000, two windows' worth alone) and 20
    // orders (three windows of its order limit), all asked for at once, before anyone else.
    const burstAdapter = adapter(0, budgets[0] as RequestBudget);
    const burst = Promise.all([
      ...Array.from({ length: BURST_READS }, () =>
        burstAdapter.balances('spot').then(() => {
          burstReadsDone += 1;
        }),
      ),
      ...Array.from({ length: BURST_ORDERS }, (_, n) => burstAdapter.placeOrder(gridBuy(0, n))),
    ]);
    // The 49 others, spread over both workers: each bot places its grid orders one after the other, reading
    // its open orders after each (markets, price, look-up by client id, order, open orders).
    const calm = Array.from({ length: ACCOUNTS - 1 }, async (_, i) => {
      const account = i + 1;
      const exchange = adapter(account, budgets[account % 2] as RequestBudget);
      for (let n = 0; n < ORDERS_PER_CALM_ACCOUNT; n += 1) {
        await exchange.placeOrder(gridBuy(account, n));
        await exchange.openOrders('spot', 'BTCUSDT');
      }
      doneAt.set(account, Date.now() - startMs);
    });
    await Promise.all(calm);
    burstReadsWhenCalmDone = burstReadsDone;
    await burst;

    // Binance's rules held in every window of the double: no 429, no 418, weight and orders under the limits.
    expect(fake.requests.filter((r) => r.outcome === 'rateLimit')).toEqual([]);
    expect(fake.peak('spotWeight')).toBeLessThanOrEqual(1800);
    expect(fake.peak('spotOrders')).toBeLessThanOrEqual(10);
    // Every order went out exactly once.
    expect(fake.book.orders).toHaveLength((ACCOUNTS - 1) * ORDERS_PER_CALM_ACCOUNT + BURST_ORDERS);
    // The budgets were the bottleneck (the load is four windows' worth), so fairness was tested: first come,
    // first served would have sent all of the burst before any calm account; taking turns, the calm accounts
    // were all through while the burst still had reads waiting (it only had the turns and the room they left).
    expect(doneAt.size).toBe(ACCOUNTS - 1);
    expect(burstReadsWhenCalmDone).toBeLessThan(BURST_READS);
  }, 120_000);

  it("an account alone on its worker gets one account's share, not half the budget: the turns are fair across workers", async () => {
    const budgets = [workerBudget(clients[0] as Redis), workerBudget(clients[1] as Redis)];
    // 30 weight per 500 ms (short so that the test takes seconds); six accounts each asking for 40 at once:
    // five on the first worker, one on the second.
    const cost = { key: 'venue:ip:fair-test', weight: 1, windows: [{ limit: 30, windowMs: 500 }] };
    const accounts = [
      ...['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, budget: budgets[0] as RequestBudget })),
      { name: 'z', budget: budgets[1] as RequestBudget },
    ];
    const order: string[] = [];
    await Promise.all(
      accounts.flatMap(({ name, budget }) =>
        Array.from({ length: 40 }, () =>
          budget.take({ account: name, costs: [cost] }).then(() => void order.push(name)),
        ),
      ),
    );
    // Of the first 120 grants (four windows' worth), each account had about a sixth: 20. Taking turns within
    // each worker alone would give the lone account half of them, 60.
    const first = order.slice(0, 120);
    for (const { name } of accounts) {
      const count = first.filter((n) => n === name).length;
      expect(count, name).toBeGreaterThanOrEqual(18);
      expect(count, name).toBeLessThanOrEqual(22);
    }
  }, 60_000);

  it('a back-off seen by one worker pauses the other', async () => {
    const [first, second] = [workerBudget(clients[0] as Redis), workerBudget(clients[1] as Redis)];
    const key = 'binance:spot:ip:pause-test';
    const cost = { key, weight: 1, windows: [{ limit: 100, windowMs: 60_000 }] };
    await first.backOff(key, 1_500);
    const startMs = Date.now();
    await second.take({ account: 'someone', costs: [cost] });
    // Redis's clock ends the pause; the second worker learnt of it from the count it asked for.
    expect(Date.now() - startMs).toBeGreaterThanOrEqual(1_400);
  });
});
