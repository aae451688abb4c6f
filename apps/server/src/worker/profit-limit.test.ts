import { botFills, bots } from '@gridbot/db';
import type { GridBotState } from '@gridbot/engine';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWallet } from '../modules/credit/ledger.repo';
import { platformCredit } from '../modules/credit/platform-credit';
import { fund, platform, signUp } from '../modules/platform/testing/platform-fixtures';
import { insertBot } from '../testing/bot-fixtures';
import { call } from '../testing/http';
import { createTestApp, type TestApp } from '../testing/test-app';
import { runnerSettled } from '../testing/waits';

// docs/product.md §5 on a running bot: when booked profit uses up availableCredit, the bot opens no new grid-1 cycle;
// a subscription gives credit back and the bot buys again.
let t: TestApp<ManualFeed>;
beforeAll(async () => {
  t = await createTestApp({}, { feed: new ManualFeed({ 'spot:ETHUSDT': '2000' }) });
});
afterAll(async () => {
  await t.close();
});

const price = (p: number) => t.feed.setPrice('ETHUSDT', 'spot', String(p));
const asSimApp = () => t as unknown as TestApp;

async function fillsOf(botId: string) {
  return t.deps.db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.seq));
}

async function newCyclesAllowed(botId: string) {
  const [row] = await t.deps.db.select().from(bots).where(eq(bots.id, botId));
  const state = row?.engineState as unknown as GridBotState | undefined;
  return state?.settings.newCyclesAllowed;
}

describe('profit limit on a running bot', () => {
  it('stops opening grid-1 cycles at zero credit and opens them again after a subscription', async () => {
    const user = await signUp(asSimApp());
    const auth = { token: user.token };
    await call(
      t,
      'POST',
      '/api/apikeys',
      { apiKey: 'k'.repeat(64), secretKey: 'secret-secret-secret' },
      auth,
    );
    // 2 USDT of credit left: the first take-profit (about 3 USDT on a 400 USDT grid) uses it up.
    await fund(asSimApp(), user.id, 'usdtToken', '100');
    await t.deps.db.transaction((tx) => platformCredit.onProfitBooked(tx, user.id, '98', 'setup'));

    price(2000);
    const botId = await insertBot(t.deps.db, user.id, { symbol: 'ETHUSDT', investment: 1000 });
    await t.deps.botControl.add(botId);
    price(2000);
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(1));
    // +1.5 %: grid 1 takes its profit, and (same step, credit not yet used up) buys grid 1 again.
    price(2030);
    await eventually(async () =>
      expect((await fillsOf(botId)).map((f) => f.side)).toEqual(['buy', 'sell', 'buy']),
    );
    await eventually(async () => expect(await newCyclesAllowed(botId)).toBe(false));
    expect(Number((await findWallet(t.deps.db, user.id))?.availableCredit)).toBe(0);

    // The open cycle still closes; then, with an empty stack, no new grid-1 cycle opens at zero credit.
    price(2070);
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(4));
    for (const p of [2060, 2050, 2055]) {
      price(p);
      await runnerSettled(t.supervisor, botId);
    }
    expect(await fillsOf(botId)).toHaveLength(4);
    const start = await call(
      t,
      'POST',
      '/api/startcycledata',
      { category: 'Spot', pair: 'BTCUSDT', amount: 100, priceReachAt: 1, sellPriceAt: 2, cycleCount: 1 },
      auth,
    );
    expect(start.status).toBe(400);
    expect(String(start.body.message)).toMatch(/Subscription/i);

    const plans = (await platform(asSimApp(), '/subscription/plans', user.token)).body.data as {
      plans: { id: string; priceUsdt: string | number }[];
    };
    const sub = await platform(asSimApp(), '/subscription/create', user.token, {
      planId: plans.plans[0]?.id,
    });
    expect(sub.body.code).toBe('0000');
    await eventually(async () => expect(await newCyclesAllowed(botId)).toBe(true));
    price(2050);
    await eventually(async () => expect(await fillsOf(botId)).toHaveLength(5));
    expect((await fillsOf(botId)).at(-1)).toMatchObject({ side: 'buy', grid: 1 });
  });
});
