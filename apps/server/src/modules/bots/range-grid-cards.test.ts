/**
 * Range grids (docs/trading-rules.md §2.6) where every bot is summed or ranked: the dashboard's total PnL and
 * Copy BOTs (docs/product.md §5). Figures worked by hand on ETHUSDT spot at 2000 (taker fee 0.1 %): a grid of
 * 1,000 USDT on 1900–2100 in 4 arithmetic levels that holds 520 USDT and 0.25 ETH and has booked 12 USDT of
 * grid profit. Valued at 2000, the coin is 500 USDT less 0.5 USDT to sell it: total PnL 520 + 499.5 − 1000 =
 * 19.5 USDT, floating PnL 19.5 − 12 = 7.5 USDT, ROI 1.95 %.
 */
import { botFills, bots, strategies } from '@gridbot/db';
import { compileRules, createRange, type RangeState } from '@gridbot/engine';
import { ManualFeed } from '@gridbot/exchange/testing';
import { getMarketRules, type TopBot } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot } from '../../testing/bot-fixtures';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';

const DAY_MS = 86_400_000;
let t: TestApp<ManualFeed>;
beforeAll(async () => {
  t = await createTestApp({}, { feed: new ManualFeed({ 'spot:ETHUSDT': '2000' }) });
});
afterAll(async () => {
  await t.close();
});

async function member(prefix: string) {
  const user = await registerUser(t, prefix);
  const auth = { token: user.token };
  const me = await call(t, 'GET', '/api/me', undefined, auth);
  return { auth, id: (me.body.user as { id: string }).id };
}

const gridParams = {
  type: 'range' as const,
  name: 'My Secret Grid',
  lower: 1900,
  upper: 2100,
  grids: 4,
  mode: 'arithmetic' as const,
  trigger: 1990,
  stopLoss: 1800,
  takeProfit: null,
  sellOnStop: true,
  trailingUp: false,
  trailingUpLimit: null,
  trailingDown: false,
  trailingDownLimit: null,
  direction: 'long' as const,
  leverage: 1,
};

/** A Live ETHUSDT spot grid started `days` ago holding `quote` USDT and `base` ETH, `gridProfit` booked. */
async function rangeGrid(
  userId: string,
  options: { days: number; quote: number; base: number; gridProfit: number },
) {
  const started = t.clock.now().getTime() - options.days * DAY_MS;
  const state: RangeState = {
    ...createRange({
      params: gridParams,
      investment: 1000,
      market: 'spot',
      rules: compileRules(getMarketRules('ETHUSDT', 'spot')),
      startTimeMs: started,
    }),
    status: 'Live',
    base: options.base,
    quote: options.quote,
  };
  state.stats = { ...state.stats, startPrice: 2000, gridProfit: options.gridProfit, matchedTrades: 3 };
  const [row] = await t.handle.db
    .insert(bots)
    .values({
      userId,
      botType: 'range',
      strategyId: null,
      strategyName: 'My Secret Grid',
      strategySnapshot: gridParams as never,
      symbol: 'ETHUSDT',
      category: 'Spot',
      investment: '1000',
      leverage: 1,
      engineState: state as unknown as Record<string, unknown>,
      createdAt: new Date(started),
      // The fills' running sum: the matched pairs' grid profit.
      profitBook: String(options.gridProfit),
    })
    .returning({ id: bots.id });
  return row!.id;
}

/** A Live multigrid bot that started `days` ago and booked `profit` USDT on its 1,000, holding nothing. */
async function multigrid(userId: string, symbol: string, days: number, profit: number) {
  const id = await insertBot(t.handle.db, userId, { symbol });
  const [row] = await t.handle.db.select().from(bots).where(eq(bots.id, id));
  const state = row!.engineState as { account: Record<string, number>; stats: Record<string, unknown> };
  const started = t.clock.now().getTime() - days * DAY_MS;
  state.account = { ...state.account, bookedProfit: profit };
  state.stats = { ...state.stats, startTimeMs: started };
  await t.handle.db
    .update(bots)
    .set({ engineState: state, stateVersion: row!.stateVersion + 1, createdAt: new Date(started) })
    .where(eq(bots.id, id));
  return id;
}

describe('the dashboard total PnL', () => {
  it("counts a running range grid's floating PnL beside its booked grid profit", async () => {
    const owner = await member('rgtotal');
    await rangeGrid(owner.id, { days: 3, quote: 520, base: 0.25, gridProfit: 12 });
    const totals = await call(t, 'GET', '/api/totalprofitbookdata', undefined, owner.auth);
    expect(totals.status).toBe(200);
    // 12 booked + 7.5 floating = 19.5, what the grid's card shows as its total PnL.
    expect(totals.body).toEqual({ totalProfit: 12, lossBook: 0, totalpnl: 19.5 });
    // At 1960 the coin is 490 less 0.49 to sell it: total 520 + 489.51 − 1000 = 9.51, floating −2.49.
    t.feed.setPrice('ETHUSDT', 'spot', '1960');
    const lower = await call(t, 'GET', '/api/totalprofitbookdata', undefined, owner.auth);
    expect(lower.body).toEqual({ totalProfit: 12, lossBook: 0, totalpnl: 9.51 });
    t.feed.setPrice('ETHUSDT', 'spot', '2000');
  });

  it("keeps a stopped range grid's sale of its coin, as its History row does", async () => {
    const owner = await member('rgstop');
    const grid = await rangeGrid(owner.id, { days: 3, quote: 520, base: 0.25, gridProfit: 12 });
    // Stopped with a sale at 2040: 0.25 × 2040 = 510 less the 0.51 fee, 1029.49 USDT held. The sale closes no
    // pair, so the books keep the 12 of grid profit; its total PnL is 1029.49 − 1000 = 29.49.
    const [row] = await t.handle.db.select().from(bots).where(eq(bots.id, grid));
    const state = row!.engineState as unknown as RangeState;
    await t.handle.db
      .update(bots)
      .set({
        status: 'Stopped',
        stoppedAt: t.clock.now(),
        closedPrice: '2040',
        stopReason: 'manual_sell',
        engineState: { ...state, status: 'Stopped', base: 0, quote: 1029.49 } as never,
        stateVersion: row!.stateVersion + 1,
      })
      .where(eq(bots.id, grid));
    const totals = await call(t, 'GET', '/api/totalprofitbookdata', undefined, owner.auth);
    expect(totals.body).toEqual({ totalProfit: 12, lossBook: 0, totalpnl: 29.49 });
    const history = await call(t, 'GET', '/api/gridhistory', undefined, owner.auth);
    expect(history.body.rows).toMatchObject([{ id: grid, profit: 12, totalpnl: 29.49 }]);
    // The price moving on changes nothing of a stopped grid.
    t.feed.setPrice('ETHUSDT', 'spot', '1500');
    expect((await call(t, 'GET', '/api/totalprofitbookdata', undefined, owner.auth)).body).toEqual(
      totals.body,
    );
    t.feed.setPrice('ETHUSDT', 'spot', '2000');
  });
});

describe('Copy BOTs with range grids', () => {
  beforeAll(async () => {
    // The totals' grids leave the ranking: only the grids below are Live.
    await t.handle.db.update(bots).set({ status: 'Stopped' }).where(eq(bots.botType, 'range'));
  });

  it('ranks a range grid by its total PnL among the bots, shows its range and copies its parameters', async () => {
    const owner = await member('rgowner');
    const viewer = await member('rgviewer');
    await multigrid(owner.id, 'ADAUSDT', 4, 30); // ROI 3 %
    const grid = await rangeGrid(owner.id, { days: 3, quote: 520, base: 0.25, gridProfit: 12 }); // ROI 1.95 %
    await multigrid(owner.id, 'DOTUSDT', 2, 10); // ROI 1 %
    // A grid's matched pairs in the last 7 UTC days: 4 USDT two days ago; 6 USDT ten days ago is older.
    const now = t.clock.now().getTime();
    const pair = { userId: owner.id, botId: grid, side: 'sell' as const, grid: 3, price: '2050' };
    await t.handle.db.insert(botFills).values([
      {
        ...pair,
        seq: 1,
        qty: '0.1',
        quote: '205',
        fee: '0.205',
        pnl: '4',
        timeMs: now - 2 * DAY_MS,
        clientOrderId: 'a',
      },
      {
        ...pair,
        seq: 2,
        qty: '0.1',
        quote: '205',
        fee: '0.205',
        pnl: '6',
        timeMs: now - 10 * DAY_MS,
        clientOrderId: 'b',
      },
    ]);

    const res = await call(t, 'GET', '/api/livebotdata', undefined, viewer.auth);
    expect(res.status).toBe(200);
    const cards = res.body.bots as TopBot[];
    expect(cards.map((c) => [c.name, c.botType, c.roi])).toEqual([
      ['ADAUSDT', 'multigrid', 3],
      ['ETHUSDT', 'range', 1.95],
      ['DOTUSDT', 'multigrid', 1],
    ]);
    const card = cards[1]!;
    expect(card).toMatchObject({
      category: 'Spot',
      shape: 'Grid 1900–2100 · 4 grids · arithmetic',
      runtime: 3,
      // 1.95 % × 365 / 3 days.
      apy: 237.25,
      // 4 USDT on 1,000.
      pnl7dPct: 0.4,
      maxDrawdownPct: null,
      copyCount: 0,
    });
    // The grid's parameters, without the name its owner typed and the trigger it started on.
    expect(card.strategy).toEqual({
      type: 'range',
      lower: 1900,
      upper: 2100,
      grids: 4,
      mode: 'arithmetic',
      stopLoss: 1800,
      takeProfit: null,
      sellOnStop: true,
      trailingUp: false,
      trailingUpLimit: null,
      trailingDown: false,
      trailingDownLimit: null,
      direction: 'long',
      leverage: 1,
    });
    expect(JSON.stringify(cards)).not.toContain('My Secret Grid');
    expect(JSON.stringify(cards)).not.toContain(grid);

    // Copy answers the parameters for Start Grid; no strategy is stored (grids have none).
    const copy = await call(t, 'POST', '/api/copybotstrategy', { copyToken: card.copyToken }, viewer.auth);
    expect(copy.status).toBe(200);
    expect(copy.body).toEqual({ success: true, botType: 'range', strategy: card.strategy });
    const stored = await t.handle.db.select().from(strategies).where(eq(strategies.userId, viewer.id));
    expect(stored).toEqual([]);
    // Its card counts the members who copied it, each once however often they copy.
    await call(t, 'POST', '/api/copybotstrategy', { copyToken: card.copyToken }, viewer.auth);
    const other = await member('rgcopier');
    await call(t, 'POST', '/api/copybotstrategy', { copyToken: card.copyToken }, other.auth);
    const again = (await call(t, 'GET', '/api/livebotdata', undefined, viewer.auth)).body.bots as TopBot[];
    expect(again.find((c) => c.botType === 'range')?.copyCount).toBe(2);

    // A stopped grid is no longer offered nor copied.
    await t.handle.db.update(bots).set({ status: 'Stopped' }).where(eq(bots.id, grid));
    const gone = await call(t, 'POST', '/api/copybotstrategy', { copyToken: card.copyToken }, viewer.auth);
    expect(gone.status).toBe(404);
  });

  it('leaves out a grid at a loss and one younger than a day', async () => {
    const owner = await member('rgloss');
    const viewer = await member('rglossview');
    // 490 + 499.5 − 1000 = −10.5: at a loss though its grid profit is 12.
    await rangeGrid(owner.id, { days: 3, quote: 490, base: 0.25, gridProfit: 12 });
    const young = await member('rgyoung');
    await rangeGrid(young.id, { days: 0.5, quote: 600, base: 0.25, gridProfit: 12 });
    const res = await call(t, 'GET', '/api/livebotdata?pair=ETHUSDT', undefined, viewer.auth);
    expect(res.status).toBe(200);
    expect(res.body.bots).toEqual([]);
  });
});
