import type { ChildProcess } from 'node:child_process';
import { FairRequestBudget, RedisBudgetCounter, type RequestBudget } from '@gridbot/exchange';
import { BybitExchange } from '@gridbot/exchange/bybit';
import { OkxExchange } from '@gridbot/exchange/okx';
import { FakeBybitServer, FakeOkxServer } from '@gridbot/exchange/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/free-port';
import { startRedisServer } from '../testing/redis-server';

// Two "worker" processes' budgets on one private redis-server; bots of several accounts spread over both place
// their grids at once on the Bybit and OKX doubles, which refuse what the exchanges refuse past their documented
// limits. Each account asks for more than its per-UID limit allows in one instant (Bybit spot order look-ups,
// 20 a second), and the price reads of all of them more than OKX's 20 per 2 s per IP: only counting together
// in Redis keeps both workers under the limits.
const ACCOUNTS = 4;
const ORDERS_PER_ACCOUNT = 12;

let server: ChildProcess;
const clients: Redis[] = [];

beforeAll(async () => {
  const port = await freePort();
  server = await startRedisServer(port);
  for (let i = 0; i < 2; i += 1) clients.push(new Redis(`redis://127.0.0.1:${port}`));
});
afterAll(() => {
  for (const client of clients) client.disconnect();
  server?.kill('SIGKILL');
});

const workerBudget = (redis: Redis, prefix: string): RequestBudget =>
  new FairRequestBudget(new RedisBudgetCounter(redis, prefix));
const noDelay = { sleep: async () => {}, random: () => 0.5, attempts: 1 };

const gridBuy = (account: number, n: number) => ({
  market: 'spot' as const,
  symbol: 'BTCUSDT',
  side: 'buy' as const,
  type: 'limit' as const,
  price: '20000',
  quantity: '0.001',
  clientOrderId: `acct${account}x${n}`,
});

/** Every account's orders at once, accounts alternating between the two workers. */
function placeAll(
  exchangeOf: (account: number, budget: RequestBudget) => BybitExchange | OkxExchange,
  prefix: string,
) {
  const budgets = [workerBudget(clients[0] as Redis, prefix), workerBudget(clients[1] as Redis, prefix)];
  return Promise.allSettled(
    Array.from({ length: ACCOUNTS }, (_, a) => {
      const exchange = exchangeOf(a, budgets[a % 2] as RequestBudget);
      return Promise.all(
        Array.from({ length: ORDERS_PER_ACCOUNT }, (_, n) => exchange.placeOrder(gridBuy(a, n))),
      );
    }),
  );
}

describe('Bybit and OKX budgets shared by two workers through Redis', () => {
  it('bots of 4 accounts on two workers never get 10006 or 403 from the Bybit double', async () => {
    const fake = await FakeBybitServer.start({ apiKey: 'k0', secret: 's0', rateLimits: true });
    try {
      for (let a = 1; a < ACCOUNTS; a += 1) fake.addKey(`k${a}`, `s${a}`);
      fake.setPrice('BTCUSDT', 'spot', '50000');
      const results = await placeAll(
        (a, budget) =>
          new BybitExchange({ apiKey: `k${a}`, secret: `s${a}`, baseUrl: fake.url, budget, retry: noDelay }),
        'gridbot:bybit-budget-test:',
      );
      expect(fake.rateLimitAnswers()).toEqual([]);
      expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
      expect(fake.orderPosts()).toHaveLength(ACCOUNTS * ORDERS_PER_ACCOUNT);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it('bots of 4 accounts on two workers never get 50011 from the OKX double', async () => {
    const fake = await FakeOkxServer.start({
      apiKey: 'k0',
      secret: 's0',
      passphrase: 'p0',
      rateLimits: true,
    });
    try {
      for (let a = 1; a < ACCOUNTS; a += 1) fake.addKey(`k${a}`, `s${a}`, `p${a}`);
      fake.setPrice('BTCUSDT', 'spot', '50000');
      const results = await placeAll(
        (a, budget) =>
          new OkxExchange({
            apiKey: `k${a}`,
            secret: `s${a}`,
            passphrase: `p${a}`,
            baseUrl: fake.url,
            budget,
            retry: noDelay,
          }),
        'gridbot:okx-budget-test:',
      );
      expect(fake.rateLimitAnswers()).toEqual([]);
      expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
      expect(fake.orderPosts()).toHaveLength(ACCOUNTS * ORDERS_PER_ACCOUNT);
    } finally {
      await fake.close();
    }
  }, 60_000);

  it("a Bybit back-off seen by one worker pauses the other, and never Binance's budget", async () => {
    const prefix = 'gridbot:bybit-pause-test:';
    const [first, second] = [
      workerBudget(clients[0] as Redis, prefix),
      workerBudget(clients[1] as Redis, prefix),
    ];
    await first.backOff('bybit:ip:default', 1_500);
    const binanceAt = Date.now();
    await second.take({
      account: 'someone',
      costs: [{ key: 'binance:spot:ip:default', weight: 1, windows: [{ limit: 100, windowMs: 60_000 }] }],
    });
    expect(Date.now() - binanceAt).toBeLessThan(1_000);
    const bybitAt = Date.now();
    await second.take({
      account: 'someone',
      costs: [{ key: 'bybit:ip:default', weight: 1, windows: [{ limit: 100, windowMs: 5_000 }] }],
    });
    expect(Date.now() - bybitAt).toBeGreaterThanOrEqual(1_000);
  });
});
