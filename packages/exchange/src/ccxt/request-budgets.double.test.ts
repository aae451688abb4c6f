import { afterEach, describe, expect, it } from 'vitest';
import { FairRequestBudget, MemoryBudgetCounter, type RequestBudget } from '../budget/request-budget';
import type { ClientOrderId } from '../exchange-port';
import { FakeBybitServer } from '../testing/fake-bybit-server';
import { FakeOkxServer } from '../testing/fake-okx-server';
import { BybitExchange } from './bybit-exchange';
import { OkxExchange } from './okx-exchange';

// Bots of several accounts place their grids at once on the doubles, which refuse what Bybit and OKX refuse past
// their limits (fake-bybit-limits.ts, fake-okx-limits.ts). Two bots per account, 6 resting buys each: an account
// asks for 12 orders and 24 order look-ups in the same instant, more than its per-UID limit on Bybit spot (20 a
// second), and the 36 price reads are more than OKX's 20 per 2 s per IP. With the budget, no answer is a
// rate-limit refusal; without it (the control), the doubles refuse some.
const ACCOUNTS = 3;
const BOTS_PER_ACCOUNT = 2;
const ORDERS_PER_BOT = 6;

const noDelay = { sleep: async () => {}, random: () => 0.5 };
const gridBuy = (bot: string, n: number) => ({
  market: 'spot' as const,
  symbol: 'BTCUSDT',
  side: 'buy' as const,
  type: 'limit' as const,
  price: '20000',
  quantity: '0.001',
  clientOrderId: `${bot}x${n}` as ClientOrderId,
});

/** Every bot of every account places its grid, all at once; resolves when all orders are placed. */
async function placeGrids(exchangeOf: (account: number) => { placeOrder: BybitExchange['placeOrder'] }) {
  const bots = [];
  for (let a = 0; a < ACCOUNTS; a += 1) {
    const exchange = exchangeOf(a);
    for (let b = 0; b < BOTS_PER_ACCOUNT; b += 1) {
      const bot = `a${a}b${b}`;
      bots.push(
        Promise.all(Array.from({ length: ORDERS_PER_BOT }, (_, n) => exchange.placeOrder(gridBuy(bot, n)))),
      );
    }
  }
  return Promise.allSettled(bots);
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function bybitDouble() {
  const fake = await FakeBybitServer.start({ apiKey: 'k0', secret: 's0', rateLimits: true });
  for (let a = 1; a < ACCOUNTS; a += 1) fake.addKey(`k${a}`, `s${a}`);
  fake.setPrice('BTCUSDT', 'spot', '50000');
  close = () => fake.close();
  const exchangeOf = (budget: RequestBudget, budgeted: boolean) => (a: number) =>
    new BybitExchange({
      apiKey: `k${a}`,
      secret: `s${a}`,
      baseUrl: fake.url,
      budget,
      enableRateLimit: budgeted,
      retry: { ...noDelay, attempts: 1 },
      timeoutMs: 10_000,
    });
  return { fake, exchangeOf };
}

async function okxDouble() {
  const fake = await FakeOkxServer.start({ apiKey: 'k0', secret: 's0', passphrase: 'p0', rateLimits: true });
  for (let a = 1; a < ACCOUNTS; a += 1) fake.addKey(`k${a}`, `s${a}`, `p${a}`);
  fake.setPrice('BTCUSDT', 'spot', '50000');
  close = () => fake.close();
  const exchangeOf = (budget: RequestBudget, budgeted: boolean) => (a: number) =>
    new OkxExchange({
      apiKey: `k${a}`,
      secret: `s${a}`,
      passphrase: `p${a}`,
      baseUrl: fake.url,
      budget,
      enableRateLimit: budgeted,
      retry: { ...noDelay, attempts: 1 },
      timeoutMs: 10_000,
    });
  return { fake, exchangeOf };
}

const sharedBudget = () => new FairRequestBudget(new MemoryBudgetCounter());

describe('bots of several accounts placing orders together on the Bybit double', () => {
  it('spending the budget, they never get 10006 or 403, and every order is placed once', async () => {
    const { fake, exchangeOf } = await bybitDouble();
    const results = await placeGrids(exchangeOf(sharedBudget(), true));
    expect(fake.rateLimitAnswers()).toEqual([]);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(fake.orderPosts()).toHaveLength(ACCOUNTS * BOTS_PER_ACCOUNT * ORDERS_PER_BOT);
  }, 60_000);

  it('without the budget (the control), the double refuses some with 10006', async () => {
    const { fake, exchangeOf } = await bybitDouble();
    await placeGrids(exchangeOf(sharedBudget(), false));
    expect(fake.rateLimitAnswers().some((r) => r.outcome === 'uidLimit')).toBe(true);
  }, 60_000);
});

describe('bots of several accounts placing orders together on the OKX double', () => {
  it('spending the budget, they never get 50011, and every order is placed once', async () => {
    const { fake, exchangeOf } = await okxDouble();
    const results = await placeGrids(exchangeOf(sharedBudget(), true));
    expect(fake.rateLimitAnswers()).toEqual([]);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(fake.orderPosts()).toHaveLength(ACCOUNTS * BOTS_PER_ACCOUNT * ORDERS_PER_BOT);
  }, 60_000);

  it('without the budget (the control), the double refuses some with 50011', async () => {
    const { fake, exchangeOf } = await okxDouble();
    await placeGrids(exchangeOf(sharedBudget(), false));
    expect(fake.rateLimitAnswers().length).toBeGreaterThan(0);
  }, 60_000);
});
