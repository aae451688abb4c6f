import { bots } from '@gridbot/db';
import { type GridParams, utcDateKey } from '@gridbot/engine';
import { botMessages as m, type TopBot } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerMember } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';

const DAY_MS = 86_400_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const member = (prefix: string) => registerMember(t, prefix);

/** A Live bot that started `days` ago and booked `profit` USDT on its 1,000 (ROI = profit / 10 %). */
async function rankedBot(
  userId: string,
  options: {
    symbol: string;
    days: number;
    profit: number;
    grids?: number;
    category?: 'Spot' | 'Future';
    datewise?: Record<string, number>;
    maxDrawdownPct?: number;
  },
) {
  const grids = options.grids ?? 3;
  const params: GridParams = {
    type: 'multigrid',
    name: 'My Secret Name',
    grids,
    alloc: Array.from({ length: grids }, () => 1 / grids),
    buyPct: Array.from({ length: grids - 1 }, () => 1),
    buyUpPct: Array.from({ length: grids - 1 }, () => 0),
    tpPct: Array.from({ length: grids }, () => 1),
    tpDownPct: Array.from({ length: grids }, () => 0),
  };
  const id = await insertBot(t.handle.db, userId, {
    symbol: options.symbol,
    params,
    market: options.category === 'Future' ? 'future' : 'spot',
  });
  const [row] = await t.handle.db.select().from(bots).where(eq(bots.id, id));
  const state = row!.engineState as { account: Record<string, number>; stats: Record<string, unknown> };
  const started = t.clock.now().getTime() - options.days * DAY_MS;
  state.account = { ...state.account, bookedProfit: options.profit };
  state.stats = {
    ...state.stats,
    startTimeMs: started,
    datewiseProfit: options.datewise ?? {},
    maxDrawdownPct: options.maxDrawdownPct ?? 0,
  };
  await t.handle.db
    .update(bots)
    .set({
      engineState: state,
      stateVersion: row!.stateVersion + 1,
      createdAt: new Date(started),
      strategyName: 'My Secret Name',
      strategySnapshot: {
        type: 'multigrid',
        No_of_order: grids,
        allotted_amount_percentage_per_order: params.alloc,
        buy_percentage: params.buyPct,
        buy_percentage_up: params.type === 'multigrid' ? params.buyUpPct : [],
        takeprofit_percentage: params.tpPct,
        takeprofit_percentage_down: params.type === 'multigrid' ? params.tpDownPct : [],
      },
    })
    .where(eq(bots.id, id));
  return id;
}

const top = async (auth: { token: string }, query = '') =>
  (await call(t, 'GET', `/api/livebotdata${query}`, undefined, auth)).body.bots as TopBot[];

describe('Copy BOTs', () => {
  it('ranks other users’ bots that ran a day with positive ROI, anonymously and in a stable order', async () => {
    const owner = await member('owner');
    const viewer = await member('viewer');
    await rankedBot(owner.id, { symbol: 'ADAUSDT', days: 3, profit: 50, grids: 10 });
    await rankedBot(owner.id, { symbol: 'DOTUSDT', days: 2, profit: 50 });
    await rankedBot(owner.id, { symbol: 'LINKUSDT', days: 4, profit: 80 });
    await rankedBot(owner.id, { symbol: 'UNIUSDT', days: 0.5, profit: 200 }); // younger than a day
    await rankedBot(owner.id, { symbol: 'XLMUSDT', days: 5, profit: -20 }); // losing
    await rankedBot(viewer.id, { symbol: 'FILUSDT', days: 5, profit: 300 }); // the viewer's own

    const first = await top(viewer.auth);
    expect(first.map((b) => b.name)).toEqual(['LINKUSDT', 'ADAUSDT', 'DOTUSDT']);
    const again = await top(viewer.auth);
    expect(again.map((b) => b.name)).toEqual(first.map((b) => b.name));
    // Each card keeps its key from read to read, while its copy token is new.
    expect(again.map((b) => b.key)).toEqual(first.map((b) => b.key));
    expect(new Set(first.map((b) => b.key)).size).toBe(3);
    expect(again[0]!.copyToken).not.toBe(first[0]!.copyToken);

    const card = first[1]!;
    expect(card.shape).toBe('Multigrid 10');
    expect(Object.keys(card).sort()).toEqual(
      [
        'apy',
        'botType',
        'category',
        'copyCount',
        'copyToken',
        'demo',
        'key',
        'leverage',
        'maxDrawdownPct',
        'name',
        'pnl7dPct',
        'roi',
        'runtime',
        'shape',
        'sparklineData',
        'strategy',
      ].sort(),
    );
    expect(JSON.stringify(first)).not.toContain('My Secret Name');
    expect(JSON.stringify(first)).not.toContain(owner.id);
    const ids = await t.handle.db.select({ id: bots.id }).from(bots);
    for (const { id } of ids) expect(JSON.stringify(first)).not.toContain(id);

    // The owner sees the viewer's bot, not their own.
    expect((await top(owner.auth)).map((b) => b.name)).toEqual(['FILUSDT']);
  });

  it('filters by pair, category and minimum runtime', async () => {
    const owner = await member('fowner');
    const viewer = await member('fviewer');
    await rankedBot(owner.id, { symbol: 'ATOMUSDT', days: 3, profit: 10 });
    await rankedBot(owner.id, { symbol: 'NEARUSDT', days: 10, profit: 10, category: 'Future' });
    expect((await top(viewer.auth, '?pair=ATOM/USDT')).map((b) => b.name)).toEqual(['ATOMUSDT']);
    expect((await top(viewer.auth, '?category=Future')).map((b) => b.name)).toContain('NEARUSDT');
    expect((await top(viewer.auth, '?category=Future')).map((b) => b.name)).not.toContain('ATOMUSDT');
    const long = (await top(viewer.auth, '?minDays=5')).map((b) => b.name);
    expect(long).toContain('NEARUSDT');
    expect(long).not.toContain('ATOMUSDT');
  });

  it('copies by token, named after the shape, and refuses a forged token', async () => {
    const owner = await member('cowner');
    const viewer = await member('cviewer');
    await rankedBot(owner.id, { symbol: 'APTUSDT', days: 2, profit: 30, grids: 10 });
    const [card] = await top(viewer.auth, '?pair=APTUSDT');
    const copy = () => call(t, 'POST', '/api/copybotstrategy', { copyToken: card!.copyToken }, viewer.auth);
    expect((await copy()).body).toMatchObject({ strategy_name: 'Multigrid 10 · copy', botType: 'multigrid' });
    expect((await copy()).body).toMatchObject({ strategy_name: 'Multigrid 10 · copy 2' });
    const mine = await call(t, 'GET', '/api/mystratagies', undefined, viewer.auth);
    expect(JSON.stringify(mine.body)).toContain('Multigrid 10 · copy');

    const ids = await t.handle.db.select({ id: bots.id }).from(bots).where(eq(bots.symbol, 'APTUSDT'));
    const forged = await call(t, 'POST', '/api/copybotstrategy', { copyToken: ids[0]!.id }, viewer.auth);
    expect(forged).toMatchObject({ status: 404, body: { message: m.botNotFound } });
  });

  it('keeps the order for the hour while ROIs move, then re-ranks, and shows 7-day PnL, drawdown and copies', async () => {
    const owner = await member('howner');
    const viewer = await member('hviewer');
    const day = (back: number) => utcDateKey(t.clock.now().getTime() - back * DAY_MS);
    const sui = await rankedBot(owner.id, {
      symbol: 'SUIUSDT',
      days: 10,
      profit: 60,
      datewise: { [day(0)]: 10, [day(6)]: 20, [day(8)]: 30 },
      maxDrawdownPct: 4.5,
    });
    await rankedBot(owner.id, { symbol: 'ETCUSDT', days: 10, profit: 50 });
    const names = async () => (await top(viewer.auth, '?category=Spot&minDays=9')).map((b) => b.name);
    expect(await names()).toEqual(['SUIUSDT', 'ETCUSDT']);

    // The first card's bot books a loss: its live ROI falls below the second's, yet the order holds this hour.
    await setBooked(sui, 10);
    expect(await names()).toEqual(['SUIUSDT', 'ETCUSDT']);
    expect(await names()).toEqual(['SUIUSDT', 'ETCUSDT']);
    const [card] = await top(viewer.auth, '?category=Spot&minDays=9');
    expect(card).toMatchObject({ name: 'SUIUSDT', roi: 1, maxDrawdownPct: 4.5, copyCount: 0, demo: false });
    // 10 today + 20 six days ago on 1,000; the 30 of eight days ago is older than the week.
    expect(card!.pnl7dPct).toBe(3);

    await call(t, 'POST', '/api/copybotstrategy', { copyToken: card!.copyToken }, viewer.auth);
    expect((await top(viewer.auth, '?category=Spot&minDays=9'))[0]).toMatchObject({
      name: 'SUIUSDT',
      copyCount: 1,
    });

    // A bot that qualifies during the hour joins at the end, whatever its ROI, until the next ranking.
    await rankedBot(owner.id, { symbol: 'TRXUSDT', days: 10, profit: 90 });
    expect(await names()).toEqual(['SUIUSDT', 'ETCUSDT', 'TRXUSDT']);

    t.clock.advance(3_600_000);
    expect(await names()).toEqual(['TRXUSDT', 'ETCUSDT', 'SUIUSDT']);
  });
});

/** Sets a bot's booked profit, as fills would (a new state version). */
async function setBooked(botId: string, profit: number) {
  const [row] = await t.handle.db.select().from(bots).where(eq(bots.id, botId));
  const state = row!.engineState as { account: Record<string, number> };
  state.account = { ...state.account, bookedProfit: profit };
  await t.handle.db
    .update(bots)
    .set({ engineState: state, stateVersion: row!.stateVersion + 1 })
    .where(eq(bots.id, botId));
}
