import { apiKeys, bots } from '@gridbot/db';
import { type HistoryRow, rangeStrategySchema } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerMember } from '../../testing/http';
import { insertRangeBot } from '../../testing/range-fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { ExchangeGateway } from '../exchange';

// The exchange a bot or range grid trades on, named on its page and in History (rows and the fills CSV): the exchange of
// the member's key, or Paper on the paper exchange; a stopped bot keeps the exchange it was started on.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const member = (prefix: string) => registerMember(t, prefix);

/** A running bot and a stopped one of the member, and a running range grid. */
async function twoBots(userId: string) {
  const params = rangeStrategySchema.parse({ type: 'range', lower: 100, upper: 200, grids: 4 });
  const grid = await insertRangeBot(t.handle.db, userId, {
    symbol: 'SOLUSDT',
    market: 'spot',
    params,
    investment: 1000,
  });
  const running = await insertBot(t.handle.db, userId, { symbol: 'ETHUSDT' });
  const stopped = await insertBot(t.handle.db, userId, { symbol: 'BTCUSDT' });
  await t.handle.db
    .update(bots)
    .set({ status: 'Stopped', stoppedAt: new Date('2026-03-02T10:00:00Z') })
    .where(eq(bots.id, stopped));
  return { running, stopped, grid: grid.botId };
}

async function exchangeNames(auth: { token: string }, running: string, grid: string) {
  const info = await call(t, 'POST', '/api/botinfo', { botID: running }, auth);
  const gridInfo = await call(t, 'POST', '/api/gridbotinfo', { botID: grid }, auth);
  const history = await call(t, 'GET', '/api/bothistory', undefined, auth);
  const csv = await t.app.inject({
    method: 'GET',
    url: '/api/historyfills.csv?type=multigrid',
    headers: { authorization: `Bearer ${auth.token}` },
  });
  return {
    page: info.body.exchange,
    gridPage: gridInfo.body.exchange,
    history: (history.body.rows as HistoryRow[]).map((r) => r.exchange),
    csvHeader: csv.body.split('\r\n')[0],
  };
}

describe('the exchange a bot trades on', () => {
  it('is Paper on the paper exchange, on the bot and grid pages, in the History rows and as the CSV’s last column', async () => {
    const user = await member('venuepaper');
    const { running, grid } = await twoBots(user.id);
    expect(await exchangeNames(user.auth, running, grid)).toEqual({
      page: 'Paper',
      gridPage: 'Paper',
      history: ['Paper'],
      csvHeader: 'date,pair,side,price,quantity,quote,fee,fee_asset,pnl,exchange',
    });
  });

  it('is the exchange of the member’s key on a live exchange: OKX, Bybit, Binance', async () => {
    const paper = t.deps.exchanges;
    // Live: no order is sent here, only the venue is read, so the paper books stand in for the exchanges.
    (t.deps as { exchanges: ExchangeGateway }).exchanges = { ...paper, venue: 'binance' };
    try {
      for (const [exchange, name] of [
        ['okx', 'OKX'],
        ['bybit', 'Bybit'],
        ['binance', 'Binance'],
      ] as const) {
        const user = await member(`venue${exchange}`);
        await t.handle.db
          .insert(apiKeys)
          .values({ userId: user.id, apiKey: 'k', secretSealed: 'sealed', exchange });
        const { running, grid } = await twoBots(user.id);
        const names = await exchangeNames(user.auth, running, grid);
        expect(names.page).toBe(name);
        expect(names.gridPage).toBe(name);
        expect(names.history).toEqual([name]);
      }
    } finally {
      (t.deps as { exchanges: ExchangeGateway }).exchanges = paper;
    }
  });

  it('stays the exchange a stopped bot traded on after the member binds another exchange’s key', async () => {
    const user = await member('venueswitch');
    await t.handle.db
      .insert(apiKeys)
      .values({ userId: user.id, apiKey: 'k', secretSealed: 'sealed', exchange: 'bybit' });
    const { stopped } = await twoBots(user.id);
    const older = await insertBot(t.handle.db, user.id, { symbol: 'XRPUSDT' });
    await t.handle.db
      .update(bots)
      .set({ status: 'Stopped', stoppedAt: new Date('2026-03-01T10:00:00Z') })
      .where(eq(bots.id, older));
    // One was started on Binance; the other before the exchange was recorded: it shows the key's.
    await t.handle.db.update(bots).set({ venue: 'binance' }).where(eq(bots.id, stopped));
    const paper = t.deps.exchanges;
    (t.deps as { exchanges: ExchangeGateway }).exchanges = { ...paper, venue: 'binance' };
    try {
      const history = await call(t, 'GET', '/api/bothistory', undefined, user.auth);
      expect((history.body.rows as HistoryRow[]).map((r) => [r.symbol, r.exchange])).toEqual([
        ['BTCUSDT', 'Binance'],
        ['XRPUSDT', 'Bybit'],
      ]);
    } finally {
      (t.deps as { exchanges: ExchangeGateway }).exchanges = paper;
    }
  });
});
