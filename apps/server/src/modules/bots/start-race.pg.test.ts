import { bots } from '@gridbot/db';
import { ManualFeed } from '@gridbot/exchange/testing';
import { botMessages as m } from '@gridbot/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';

// One running bot or cycle per user, pair and category. PostgreSQL only (`npm run test:pg`): PGlite has one
// connection, so its requests never overlap; here 20 starts run on a pool, each past the early check
// before any of them inserts.
const PARALLEL = 20;
const keys = { apiKey: 'k'.repeat(64), secretKey: 'secret-secret-secret' };

describe('starting bots and cycles at once on one pair (PostgreSQL)', () => {
  let t: TestApp<ManualFeed>;
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        feed: new ManualFeed({ 'spot:ETHUSDT': '2000', 'spot:SOLUSDT': '150' }),
      },
    );
    expect(t.handle.kind).toBe('postgres');
  });
  afterAll(() => t.close());

  async function trader(prefix: string) {
    const user = await registerUser(t, prefix);
    await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
    return user;
  }

  const running = (symbol: string) =>
    t.deps.db
      .select({ id: bots.id })
      .from(bots)
      .where(and(eq(bots.symbol, symbol), inArray(bots.status, ['Live', 'Pause'])));

  it('lets at most one of 20 parallel bot starts through; the others get the spec message', async () => {
    const user = await trader('race');
    const start = {
      botType: 'Multigrid',
      category: 'Spot',
      selectPair: 'SOLUSDT',
      myStrategy: 'Tight Range 5',
      amount: 200,
    };
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        call(t, 'POST', '/api/startbotdata', start, { token: user.token }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    for (const a of answers.filter((x) => x.status !== 200))
      expect(a).toMatchObject({ status: 400, body: { message: m.alreadyRunning('SOLUSDT') } });
    expect((await running('SOLUSDT')).length).toBe(ok.length);
  });

  it('lets at most one of 20 parallel cycle and bot starts on one pair through', async () => {
    const user = await trader('racecyc');
    const cycle = {
      pair: 'ETHUSDT',
      category: 'Spot',
      amount: 100,
      priceReachAt: 1990,
      sellPriceAt: 2010,
      cycleCount: 2,
    };
    const bot = {
      botType: 'Multigrid',
      category: 'Spot',
      selectPair: 'ETHUSDT',
      myStrategy: 'Tight Range 5',
      amount: 200,
    };
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        i % 2 === 0
          ? call(t, 'POST', '/api/startcycledata', cycle, { token: user.token })
          : call(t, 'POST', '/api/startbotdata', bot, { token: user.token }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    for (const a of answers.filter((x) => x.status !== 200))
      expect(a.body.message).toBe(m.alreadyRunning('ETHUSDT'));
    expect((await running('ETHUSDT')).length).toBe(ok.length);
  });
});
