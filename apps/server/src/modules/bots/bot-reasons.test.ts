import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import type { HistoryRow } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp<ManualFeed>;
beforeAll(async () => {
  t = await createTestApp({}, { feed: new ManualFeed({ 'spot:ETHUSDT': '2000' }) });
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

describe('why a bot stopped reaches the screens', () => {
  it('answers the stoploss as stopReason on the bot page and in History', async () => {
    const user = await registerUser(t, 'why');
    const auth = { token: user.token };
    await call(t, 'POST', '/api/apikeys', keys, auth);
    const started = await call(t, 'POST', '/api/startbotdata', { ...start, stoplossPrice: 1800 }, auth);
    const botID = String(started.body.botId);
    t.feed.setPrice('ETHUSDT', 'spot', '1700');
    await eventually(async () => {
      const info = (await call(t, 'POST', '/api/botinfo', { botID }, auth)).body;
      expect(info).toMatchObject({ status: 'Stopped', stopReason: 'stoploss' });
    });
    const history = (await call(t, 'GET', '/api/bothistory', undefined, auth)).body.rows as HistoryRow[];
    expect(history).toEqual([expect.objectContaining({ id: botID, stopReason: 'stoploss' })]);
  });
});
