import { afterEach, describe, expect, it } from 'vitest';
import { BybitExchange } from '../ccxt/bybit-exchange';
import { FakeBybitServer } from './fake-bybit-server';
import { virtualBudget } from './virtual-budget';

let fake: FakeBybitServer | undefined;
afterEach(async () => {
  await fake?.close();
});

describe("the Bybit double refuses what Bybit's rate limits refuse", () => {
  it('a UID past its endpoint limit (wallet balance SPOT, 20 a second) gets 10006; another UID does not', async () => {
    fake = await FakeBybitServer.start({ rateLimits: true });
    const adapter = new BybitExchange({
      apiKey: fake.apiKey,
      secret: fake.secret,
      baseUrl: fake.url,
      enableRateLimit: false,
      budget: virtualBudget().budget,
      retry: { attempts: 1, sleep: async () => {}, random: () => 0.5 },
    });
    const reads = await Promise.allSettled(Array.from({ length: 21 }, () => adapter.balances('spot')));
    expect(reads.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect(fake.rateLimitAnswers().map((r) => r.outcome)).toEqual(['uidLimit']);
    // Another account (its own UID) still reads.
    fake.addKey('k2', 's2');
    const other = new BybitExchange({
      apiKey: 'k2',
      secret: 's2',
      baseUrl: fake.url,
      enableRateLimit: false,
      budget: virtualBudget().budget,
    });
    expect((await other.balances('spot'))[0]).toMatchObject({ asset: 'USDT' });
  });

  it('past 600 requests in 5 s the IP gets HTTP 403 "access too frequent", and keeps getting it', async () => {
    fake = await FakeBybitServer.start({ rateLimits: true });
    const url = `${fake.url}/v5/market/time`;
    const statuses = await Promise.all(Array.from({ length: 601 }, () => fetch(url).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(600);
    const after = await fetch(url);
    expect([after.status, await after.text()]).toEqual([403, 'access too frequent']);
  });

  it("a 10006 answer's X-Bapi-Limit-Reset-Timestamp lies the fault's reset time after the answer's own time, however the clock moves meanwhile", async () => {
    fake = await FakeBybitServer.start();
    // A clock that moves on at every reading, as a busy machine's does between two reads of Date.now().
    let clock = 1_700_000_000_000;
    fake.now = () => (clock += 1);
    fake.inject('/v5/account/wallet-balance', { kind: 'rateLimited', resetInMs: 1000 });
    const answer = await fetch(`${fake.url}/v5/account/wallet-balance?accountType=UNIFIED`);
    const body = (await answer.json()) as { retCode: number; time: number };
    expect(body.retCode).toBe(10006);
    expect(Number(answer.headers.get('x-bapi-limit-reset-timestamp')) - body.time).toBe(1000);
  });
});
