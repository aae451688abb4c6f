import { botMessages as m } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const keys = { apiKey: 'k'.repeat(64), secretKey: 'secret-secret-secret' };
const start = {
  botType: 'Multigrid',
  category: 'Spot',
  selectPair: 'ETHUSDT',
  myStrategy: 'Tight Range 5',
  amount: 500,
};

async function trader(prefix: string) {
  const user = await registerUser(t, prefix);
  await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
  return { token: user.token };
}

describe('start bot price limits', () => {
  const live = () => Number(t.deps.feed.lastPrice('ETHUSDT', 'spot'));

  it.each([
    ['a stoploss above the live price', () => ({ stoplossPrice: live() * 10_000 }), m.stoplossBelowLive],
    ['a pause price below the live price', () => ({ sellPausePrice: 1 }), m.pauseAboveLive],
    [
      'a restart price above the pause price',
      () => ({ sellPausePrice: live() * 2, restartPrice: live() * 3 }),
      m.restartBelowPause,
    ],
  ])('refuses %s with the running-bot dialog words and starts nothing', async (_, limits, message) => {
    const auth = await trader('pl');
    const res = await call(t, 'POST', '/api/startbotdata', { ...start, ...limits() }, auth);
    expect(res).toMatchObject({ status: 400, body: { message } });
    const status = await call(t, 'GET', '/api/botstatus', undefined, auth);
    expect(status.body.bots).toEqual([]);
  });

  it('starts with limits on the right sides', async () => {
    const auth = await trader('pr');
    const limits = { sellPausePrice: live() * 1.5, restartPrice: live() * 1.2, stoplossPrice: live() * 0.5 };
    const res = await call(t, 'POST', '/api/startbotdata', { ...start, ...limits }, auth);
    expect(res.status).toBe(200);
  });
});

describe('running bot price limits', () => {
  it('refuses a restart price above the pause price', async () => {
    const auth = await trader('rr');
    const started = await call(t, 'POST', '/api/startbotdata', start, auth);
    const live = Number(t.deps.feed.lastPrice('ETHUSDT', 'spot'));
    const res = await call(
      t,
      'POST',
      '/api/sltpedit',
      {
        botID: started.body.botId,
        sellAllAndPausePrice: live * 2,
        restartPrice: live * 2.5,
        stoplossPrice: null,
      },
      auth,
    );
    expect(res).toMatchObject({ status: 400, body: { message: m.restartBelowPause } });
  });
});
