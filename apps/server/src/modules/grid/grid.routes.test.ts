/**
 * The range grid's API (packages/shared grid-bot.ts, docs/trading-rules.md §2.6) on the paper exchange, with
 * figures worked by hand: ETHUSDT spot (tick 0.01, step 0.0001, minimum order 5 USDT), 1000 USDT on a grid of
 * 1900–2100 in 4 levels of 50 started at 2000.
 */
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import {
  botApiPaths,
  botKindApiPaths,
  type GridBotView,
  type GridFillView,
  type HistoryRow,
  botMessages as m,
  type NotificationList,
} from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { PAPER_ACCOUNT_KEYS } from '../exchange';

let t: TestApp<ManualFeed>;
beforeAll(async () => {
  t = await createTestApp(
    {},
    { feed: new ManualFeed({ 'spot:ETHUSDT': '2000', 'future:ETHUSDT': '2000' }), matchOrders: true },
  );
});
afterAll(async () => {
  await t.close();
});

const keys = { apiKey: 'k'.repeat(64), secretKey: 'secret-secret-secret' };
const grid = { type: 'range', lower: 1900, upper: 2100, grids: 4 };
const start = { category: 'Spot', selectPair: 'ETHUSDT', amount: 1000, strategy: grid };

async function trader(prefix: string) {
  const user = await registerUser(t, prefix);
  await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
  return { token: user.token };
}

const price = (p: number) => t.feed.setPrice('ETHUSDT', 'spot', String(p));
/** The grid's runner is done with what it had to do (its orders are all out before the price moves on). */
const settled = (botId: string) => t.supervisor.rangeRunner(botId)?.serial(async () => {});

async function info(auth: { token: string }, botID: string): Promise<GridBotView> {
  const res = await call(t, 'POST', '/api/gridbotinfo', { botID }, auth);
  expect(res.status).toBe(200);
  return res.body as unknown as GridBotView;
}

describe('range grid API', () => {
  it('answers 401 without a session', async () => {
    expect((await call(t, 'GET', '/api/gridbots')).status).toBe(401);
    expect((await call(t, 'POST', '/api/startgrid', start)).status).toBe(401);
  });

  it('refuses the engine start refusals with its message', async () => {
    const auth = await trader('gr');
    // 100 levels of 0.2 between 1990 and 2010: 0.01 % a level, far below twice the 0.1 % maker fee.
    const narrow = await call(
      t,
      'POST',
      '/api/startgrid',
      {
        ...start,
        strategy: { type: 'range', lower: 1990, upper: 2010, grids: 100 },
      },
      auth,
    );
    expect(narrow.status).toBe(400);
    // The narrowest gap, in percent, is the top one: 0.2 / 2009.8; twice the fee there is 0.2 % × 2009.8.
    expect(narrow.body.message).toBe(
      'grid spacing of 0.01% between 2009.8 and 2010 does not cover twice the 0.1% fee: the minimum spacing is 0.2% (4.0196 USDT at 2009.8); use fewer grids or a wider range',
    );
    // 10 USDT over 11 levels of 1000–3000: q = floor(10 / (1000+1200+1400+1600+1800 + 2000×5) / 0.0001) × 0.0001
    // = 0.0005, an order of 0.5 USDT at 1000.
    const small = await call(
      t,
      'POST',
      '/api/startgrid',
      {
        ...start,
        amount: 10,
        strategy: { type: 'range', lower: 1000, upper: 3000, grids: 10 },
      },
      auth,
    );
    expect(small.status).toBe(400);
    expect(small.body.message).toBe(
      'an order of 0.0005 at 1000 is 0.5 USDT, below the minimum order of 5 USDT for ETHUSDT: invest more or use fewer grids',
    );
    // With a trigger the grid starts, and sizes its orders, where the price crosses it. 90 USDT at 2000 gives
    // q = floor(90 / (1000+…+1800 + 2000×5) / 0.0001) × 0.0001 = 0.0052 (5.2 USDT at 1000), enough; at the
    // trigger 3000 every level is a buy: q = floor(90 / (1000+1200+…+2800) / 0.0001) × 0.0001 = 0.0047.
    const triggered = await call(
      t,
      'POST',
      '/api/startgrid',
      {
        ...start,
        amount: 90,
        strategy: { type: 'range', lower: 1000, upper: 3000, grids: 10, trigger: 3000 },
      },
      auth,
    );
    expect(triggered.status).toBe(400);
    expect(triggered.body.message).toBe(
      'an order of 0.0047 at 1000 is 4.7 USDT, below the minimum order of 5 USDT for ETHUSDT: invest more or use fewer grids',
    );
    const bad = await call(
      t,
      'POST',
      '/api/startgrid',
      { ...start, strategy: { ...grid, upper: 1800 } },
      auth,
    );
    expect(bad.status).toBe(400);
    expect((await call(t, 'GET', '/api/gridbots', undefined, auth)).body).toEqual([]);
  });

  it('starts a short futures grid on the paper exchange: the short opens at the start, reduce-only buys rest below', async () => {
    const user = await registerUser(t, 'gshort');
    const auth = { token: user.token };
    await call(t, 'POST', '/api/apikeys', keys, auth);
    const me = await call(t, 'GET', '/api/me', undefined, auth);
    const exchange = t.deps.exchanges.forUser((me.body.user as { id: string }).id, PAPER_ACCOUNT_KEYS);
    await exchange.transfer('spot_to_future', '1000');
    const res = await call(
      t,
      'POST',
      '/api/startgrid',
      { ...start, category: 'Future', amount: 500, strategy: { ...grid, direction: 'short', leverage: 2 } },
      auth,
    );
    expect(res.status).toBe(200);
    const botID = String(res.body.botID);
    t.feed.setPrice('ETHUSDT', 'future', '2000');
    const live = await eventually(async () => {
      const v = await info(auth, botID);
      if (v.orders.length !== 4) throw new Error('orders not placed yet');
      return v;
    });
    await settled(botID);
    // Level 2 (2000) stays empty; the short sold at start is closed by the buys below, which may only reduce it.
    expect(live.orders.map((o) => [o.level, o.side, o.reduceOnly])).toEqual([
      [0, 'buy', true],
      [1, 'buy', true],
      [3, 'sell', false],
      [4, 'sell', false],
    ]);
    const position = await exchange.position('ETHUSDT');
    expect(position).toMatchObject({ side: 'short' });
    expect(Number(position!.quantity)).toBeCloseTo(live.qtyPerOrder * 2, 8);
  });

  it('starts, rests its orders, answers a fill one level away, books the pair and stops with a sale', async () => {
    const auth = await trader('gs');
    const res = await call(t, 'POST', '/api/startgrid', start, auth);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(m.botStarting);
    const botID = String(res.body.botID);
    expect((await info(auth, botID)).status).toBe('Waiting');
    price(2000);
    // Level 2 (2000) nearest the price stays empty; q = floor(1000 / (1900 + 1950 + 2000 × 2) / 0.0001) × 0.0001
    // = 0.1273. The start buys 2 × q = 0.2546 at 2000 (509.2 USDT), keeping 0.0002546 ETH as the commission:
    // 0.2543454 held. The sell at 2050 takes q, the one at 2100 the rest floored to the step, 0.1270.
    const live = await eventually(async () => {
      const v = await info(auth, botID);
      if (v.orders.length !== 4) throw new Error('orders not placed yet');
      return v;
    });
    await settled(botID);
    expect(live).toMatchObject({
      status: 'Live',
      qtyPerOrder: 0.1273,
      levels: [1900, 1950, 2000, 2050, 2100],
    });
    expect(live.orders.map((o) => [o.level, o.side, o.price, o.qty])).toEqual([
      [0, 'buy', 1900, 0.1273],
      [1, 'buy', 1950, 0.1273],
      [3, 'sell', 2050, 0.1273],
      [4, 'sell', 2100, 0.127],
    ]);
    expect(live.base).toBe(0.2543454);
    expect(live.quote).toBe(490.8);
    expect(live.orders.every((o) => o.clientOrderId.length > 0)).toBe(true);

    // 1940 reaches the buy at 1950: it fills at 1950 (248.235 USDT) as a maker, 0.1 % of 0.1273 ETH =
    // 0.0001273 ETH kept (0.248235 USDT). Its answer is a sell at 2000 of the free coin floored: 0.3815181 held −
    // 0.2543 locked = 0.1272181 → 0.1272.
    price(1940);
    const bought = await eventually(async () => {
      const v = await info(auth, botID);
      if (!v.orders.some((o) => o.level === 2)) throw new Error('not answered yet');
      return v;
    });
    await settled(botID);
    expect(bought.orders.find((o) => o.level === 2)).toMatchObject({
      side: 'sell',
      price: 2000,
      qty: 0.1272,
    });
    expect(bought.orders.some((o) => o.level === 1)).toBe(false);
    // 2010 reaches the sell at 2000: 254.4 USDT less 0.2544 fee against the buy's 248.235 = 5.9106 grid profit.
    price(2010);
    const sold = await eventually(async () => {
      const v = await info(auth, botID);
      if (v.matchedTrades !== 1 || !v.orders.some((o) => o.level === 1)) throw new Error('not sold yet');
      return v;
    });
    expect(sold.gridProfit).toBe(5.9106);
    const fills = (await call(t, 'POST', '/api/gridfills', { botID }, auth))
      .body as unknown as GridFillView[];
    expect(fills.map((f) => [f.side, f.level, f.price, f.qty, f.quote, f.fee, f.feeAsset, f.pnl])).toEqual([
      ['sell', 2, 2000, 0.1272, 254.4, 0.2544, 'USDT', 5.9106],
      // Each buy's commission as charged, in the coin: 0.1 % of 0.1273 and of 0.2546 ETH.
      ['buy', 1, 1950, 0.1273, 248.235, 0.0001273, 'ETH', null],
      ['buy', null, 2000, 0.2546, 509.2, 0.0002546, 'ETH', null],
    ]);

    // The grid is the user's alone, and the Multigrid dashboard does not list it.
    const other = await trader('go');
    expect((await call(t, 'POST', '/api/gridbotinfo', { botID }, other)).status).toBe(404);
    expect((await call(t, 'POST', '/api/gridfills', { botID }, other)).status).toBe(404);
    expect((await call(t, 'POST', '/api/gridstop', { botID, sell: true }, other)).status).toBe(404);
    const cards = await call(t, 'GET', botKindApiPaths.multigrid.status, undefined, auth);
    expect(JSON.stringify(cards.body)).not.toContain(botID);

    // Edits are checked against the grid's bounds.
    const high = await call(t, 'POST', '/api/gridedit', { botID, stopLoss: 1950 }, auth);
    expect(high.status).toBe(400);
    const edit = await call(t, 'POST', '/api/gridedit', { botID, stopLoss: 1800, trailingUp: true }, auth);
    expect(edit.body).toEqual({ message: m.gridUpdated });
    expect((await info(auth, botID)).strategy).toMatchObject({ stopLoss: 1800, trailingUp: true });

    const stop = await call(t, 'POST', '/api/gridstop', { botID, sell: true }, auth);
    expect(stop.status).toBe(200);
    expect(stop.body).toEqual({ message: m.stoppedSold });
    const stopped = await info(auth, botID);
    expect(stopped).toMatchObject({ status: 'Stopped', stopReason: 'manual_sell', orders: [] });
    // Everything held was sold but what is below the step: 0.2543454 + 0.1273 − 0.0001273 − 0.1272 = 0.2543181,
    // sold 0.2543, 0.0000181 left as dust.
    expect(stopped.base).toBe(0.0000181);
    const list = (await call(t, 'GET', '/api/gridbots', undefined, auth)).body as unknown as GridBotView[];
    expect(list.map((b) => [b.id, b.status])).toEqual([[botID, 'Stopped']]);
    expect((await call(t, 'POST', '/api/gridstop', { botID }, auth)).status).toBe(400);

    // History: the sale sold 0.2543 at 2010 = 511.143 USDT less 0.511143 taker fee. USDT held: 1000 − 509.2 −
    // 248.235 + 254.4 − 0.2544 + 511.143 − 0.511143 = 1007.342457; the dust 0.0000181 at 2010 less the taker
    // fee of selling it is 0.036344619: total PnL 7.378801619, ROI 0.7379 %. Four fills, one matched pair.
    const history = await call(t, 'GET', '/api/gridhistory', undefined, auth);
    expect(history.status).toBe(200);
    const rows = history.body.rows as HistoryRow[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: botID,
      symbol: 'ETHUSDT',
      category: 'Spot',
      strategy_name: 'Spot Grid',
      investment: 1000,
      profit: 5.9106,
      gridProfit: 5.9106,
      matchedTrades: 1,
      trades: 4,
      lossbook: null,
      totalpnl: 7.37880162,
      roi: 0.7379,
      stopAt: 2010,
      stopReason: 'manual_sell',
      positionLeftOpen: false,
    });
    expect((await call(t, 'GET', '/api/gridhistory', undefined, other)).body).toEqual({ rows: [] });
    // The Multigrid history does not list it.
    const multigrid = await call(t, 'GET', botKindApiPaths.multigrid.history, undefined, auth);
    expect(multigrid.body).toEqual({ rows: [] });

    // The History export of range grids: every fill, oldest first, each fee as charged in its asset.
    const csv = await call(
      t,
      'GET',
      `${botApiPaths.historyFillsCsv}?type=range&reason=manual_sell`,
      undefined,
      auth,
    );
    expect(csv.status).toBe(200);
    const lines = String(csv.body.raw).trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,pair,side,price,quantity,quote,fee,fee_asset,pnl,exchange');
    expect(lines.slice(1).map((line) => line.split(',').slice(1))).toEqual([
      ['ETHUSDT', 'BUY', '2000', '0.2546', '509.2', '0.0002546', 'ETH', '', 'Paper'],
      ['ETHUSDT', 'BUY', '1950', '0.1273', '248.235', '0.0001273', 'ETH', '', 'Paper'],
      ['ETHUSDT', 'SELL', '2000', '0.1272', '254.4', '0.2544', 'USDT', '5.9106', 'Paper'],
      // The stop's market sale closes no pair: no grid profit.
      ['ETHUSDT', 'SELL', '2010', '0.2543', '511.143', '0.511143', 'USDT', '', 'Paper'],
    ]);
    // A stop the user asked for is no news to them: no bot event in the bell.
    const bell = (await call(t, 'GET', '/api/notifications', undefined, auth))
      .body as unknown as NotificationList;
    expect(bell.items.filter((i) => i.botId !== null)).toEqual([]);
    const none = await call(
      t,
      'GET',
      `${botApiPaths.historyFillsCsv}?type=range&reason=stoploss`,
      undefined,
      auth,
    );
    expect(String(none.body.raw).trimEnd().split('\r\n')).toHaveLength(1);
  });

  it('shows out of range below its grid, stops at its stoploss, tells the user and lists the stop in History', async () => {
    const auth = await trader('gl');
    const res = await call(
      t,
      'POST',
      '/api/startgrid',
      { ...start, strategy: { ...grid, stopLoss: 1800 } },
      auth,
    );
    expect(res.status).toBe(200);
    const botID = String(res.body.botID);
    price(2000);
    await eventually(async () => {
      if ((await info(auth, botID)).orders.length !== 4) throw new Error('orders not placed yet');
    });
    await settled(botID);
    // 1850 is below the lower price 1900 and above the stoploss: the grid waits, Live, out of range.
    price(1850);
    await eventually(async () => {
      const v = await info(auth, botID);
      if (v.orders.some((o) => o.side === 'buy')) throw new Error('buys not filled yet');
    });
    await settled(botID);
    const waiting = (await call(t, 'GET', '/api/gridbots', undefined, auth)).body as unknown as GridBotView[];
    expect(waiting.map((b) => [b.id, b.status, b.outOfRange])).toEqual([[botID, 'Live', true]]);
    price(1790);
    const stopped = await eventually(async () => {
      const v = await info(auth, botID);
      if (v.status !== 'Stopped') throw new Error('not stopped yet');
      return v;
    });
    expect(stopped.stopReason).toBe('stoploss');
    const bell = (await call(t, 'GET', '/api/notifications', undefined, auth))
      .body as unknown as NotificationList;
    // The bot's events (the key saved at sign-up is the other): its stop, linked to the grid's page.
    const botEvents = bell.items.filter((i) => i.botId !== null);
    expect(botEvents.map((i) => [i.type, i.body, i.botId, i.botType])).toEqual([
      ['bot_stopped', 'Your ETHUSDT Spot grid stopped: its stoploss price was reached.', botID, 'range'],
    ]);
    // The runner walks the line from 1850 to 1790 and acts at the level it crosses: closed at the stoploss 1800.
    const rows = (await call(t, 'GET', '/api/gridhistory', undefined, auth)).body.rows as HistoryRow[];
    expect(rows.map((r) => [r.id, r.stopReason, r.stopAt])).toEqual([[botID, 'stoploss', 1800]]);
  });
});
