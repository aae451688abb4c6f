import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { botKindApiPaths, botMessages as m } from '@gridbot/shared';
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
// Tight Range 5: five grids of 20 % each, next grid 0.8 % below the newest lot with a 0.15 % rebound,
// take profit 0.8 %. ETHUSDT spot: step 0.0001, minimum order 5 USDT.
const start = {
  botType: 'Multigrid',
  category: 'Spot',
  selectPair: 'ETHUSDT',
  myStrategy: 'Tight Range 5',
  amount: 500,
};
const price = (p: number) => t.feed.setPrice('ETHUSDT', 'spot', String(p));
const paths = botKindApiPaths.multigrid;

type Auth = { token: string };
interface Order {
  type: string;
  quantity: number;
}

async function trader(prefix: string) {
  const user = await registerUser(t, prefix);
  const auth = { token: user.token };
  await call(t, 'POST', '/api/apikeys', keys, auth);
  return auth;
}

async function orders(auth: Auth, botID: string): Promise<Order[]> {
  return (await call(t, 'POST', paths.orderBook, { botID }, auth)).body.orders as Order[];
}

/** Starts the bot at 2000 and waits for grid 1: 20 % of 500 = 100 USDT → 100 / 2000 = 0.05 ETH. */
async function startedBot(auth: Auth, extra: Record<string, unknown> = {}) {
  price(2000);
  const res = await call(t, 'POST', paths.start, { ...start, ...extra }, auth);
  expect(res.body.message).toBe(m.startCreated);
  const botID = String(res.body.botId);
  price(2000);
  await eventually(async () => expect((await orders(auth, botID)).map((o) => o.quantity)).toEqual([0.05]));
  return botID;
}

describe('resume a bot its pause price paused', () => {
  it('sells at the pause price, then on Resume buys grid 1 at the market price without its pause price', async () => {
    const auth = await trader('rpz');
    const botID = await startedBot(auth, { sellPausePrice: 2100, restartPrice: 1900 });
    const resume = () => call(t, 'POST', paths.resumePaused, { botID }, auth);
    expect(await resume()).toMatchObject({ status: 400, body: { message: m.notPricePaused } });

    price(2100); // ≥ the pause price: everything is sold and the bot pauses, waiting for 1900
    await eventually(async () => {
      const info = (await call(t, 'POST', paths.info, { botID }, auth)).body;
      expect(info.status).toBe('Pause');
      expect((await orders(auth, botID)).map((o) => o.type)).toEqual(['SELL', 'BUY']);
    });

    // The pause sold what grid 1 kept: 0.05 less the 0.1 % fee taken in ETH = 0.04995 → 0.0499 (step 0.0001).
    // Resumed at 2100: grid 1 buys 100 / 2100 = 0.047619… → 0.0476 ETH at once, and 2100 no longer pauses it.
    expect(await resume()).toMatchObject({ status: 200, body: { message: m.resumedFromPause } });
    await eventually(async () =>
      expect((await orders(auth, botID)).map((o) => [o.type, o.quantity])).toEqual([
        ['BUY', 0.0476],
        ['SELL', 0.0499],
        ['BUY', 0.05],
      ]),
    );
    const info = (await call(t, 'POST', paths.info, { botID }, auth)).body;
    expect(info.status).toBe('Live');
    expect((await call(t, 'POST', '/api/sltp', { botID }, auth)).body).toMatchObject({
      sell_all_and_pause_at_price: null,
      restart_at_price: null,
    });
    expect(await resume()).toMatchObject({ status: 400, body: { message: m.notPricePaused } });
  });

  it("answers 404 to another user's bot", async () => {
    const owner = await trader('rpo');
    const botID = await startedBot(owner);
    const other = await trader('rpx');
    for (const url of [paths.resumePaused, paths.addFunds]) {
      const res = await call(t, 'POST', url, { botID, amount: 100 }, other);
      expect(res.status, url).toBe(404);
    }
    await call(t, 'POST', paths.stop, { botID }, owner);
  });
});

describe('add funds to a running bot', () => {
  it.each([
    [{ amount: '' }, m.amountRequired],
    [{ amount: 'abc' }, m.amountNumber],
    [{ amount: 9.99 }, m.addFundsMin(10)],
    [{ amount: 1_000_001 }, m.addFundsMax(1_000_000)],
  ])('refuses %j with "%s"', async (body, message) => {
    const res = await call(t, 'POST', paths.addFunds, { botID: 'x', ...body }, { token: 'none' });
    // The session is checked before the body: a stranger reads 401 whatever it sends.
    expect(res.status).toBe(401);
    const auth = await trader('afv');
    const checked = await call(t, 'POST', paths.addFunds, { botID: 'x', ...body }, auth);
    expect(checked).toMatchObject({ status: 400, body: { message } });
  });

  it('checks the free balance, raises the committed funds and the allotment of every grid', async () => {
    const auth = await trader('afd');
    const botID = await startedBot(auth);
    // 10,000 USDT − 100 spent on grid 1 − 400 the bot keeps for its other grids = 9,500 free.
    const tooMuch = await call(t, 'POST', paths.addFunds, { botID, amount: 9_500.5 }, auth);
    expect(tooMuch).toMatchObject({
      status: 400,
      body: {
        message: `${m.insufficientBalance}: 9500.00 USDT free in your spot wallet; adding 9500.50 USDT needs 9500.50 USDT including fees.`,
      },
    });

    const added = await call(t, 'POST', paths.addFunds, { botID, amount: 1000 }, auth);
    expect(added).toMatchObject({
      status: 200,
      body: { message: m.fundsAdded('1000', '1500'), investment: '1500' },
    });
    const info = (await call(t, 'POST', paths.info, { botID }, auth)).body;
    expect(info).toMatchObject({ status: 'Live', investment: 1500 });
    // The bot keeps 1500 − 100 spent = 1400 USDT: 8,500 stay free.
    const funds = (await call(t, 'GET', '/api/committedfunds', undefined, auth)).body;
    expect(funds).toMatchObject({ spotUsdt: '1400' });
    expect((await call(t, 'GET', '/api/spotBalance', undefined, auth)).body).toEqual({
      spotusdtAmount: '8500',
      committedUsdt: '1400',
      venue: 'paper',
    });
    const pie = (await call(t, 'GET', paths.pieChart, undefined, auth)).body;
    expect(pie.chartData).toEqual([{ label: 'ETH/USDT Spot', value: 1500 }]);

    // Grid 2 arms at 2000 × 0.992 = 1984 and buys on the rebound to 1984 × 1.0015 = 1986.976: its share is
    // now 20 % of 1500 = 300 USDT → 300 / 1986.976… = 0.15098… → 0.1509 ETH (0.0503 without the funds).
    price(1984);
    price(1987);
    await eventually(async () =>
      expect((await orders(auth, botID)).map((o) => o.quantity)).toEqual([0.1509, 0.05]),
    );
  });

  it('refuses a stopped bot, and leaves its investment as it was', async () => {
    const auth = await trader('afs');
    const botID = await startedBot(auth);
    await call(t, 'POST', paths.stop, { botID }, auth);
    const res = await call(t, 'POST', paths.addFunds, { botID, amount: 100 }, auth);
    expect(res).toMatchObject({ status: 400, body: { message: m.botNotRunning } });
    const info = (await call(t, 'POST', paths.info, { botID }, auth)).body;
    expect(info.investment).toBe(500);
  });

  it('checks each grid against the exchange minimum at the live price, as a start does', async () => {
    // BTCUSDT futures: step 0.001, minimum order 100 USDT. 1000 at 1× on five grids of 20 %: 200 a grid;
    // at 60,000 that is 0.003 BTC = 180 USDT, so the bot starts.
    const auth = await trader('afm');
    const transfer = { from: 'Spot', to: 'Futures', coin: 'USDT', amount: 5000 };
    await call(t, 'POST', '/api/transferspottofutures', transfer, auth);
    t.feed.setPrice('BTCUSDT', 'future', '60000');
    const future = { ...start, selectPair: 'BTCUSDT', category: 'Future', leverage: 1, amount: 1000 };
    const res = await call(t, 'POST', paths.start, future, auth);
    expect(res.body.message).toBe(m.startCreated);
    const botID = String(res.body.botId);
    // At 210,000 a grid of 20 % of 1010 = 202 USDT buys 0.00096… → 0 BTC: refused, naming each grid.
    t.feed.setPrice('BTCUSDT', 'future', '210000');
    const small = await call(t, 'POST', paths.addFunds, { botID, amount: 10 }, auth);
    expect(small.status).toBe(400);
    expect(small.body.message).toMatch(
      /^Grid 1 order of 0 USDT \(0 BTC after rounding to the step 0\.001 at 210000 USDT\) is below the minimum order of 100 USDT for BTCUSDT futures/,
    );
    // 1000 + 1100 = 2100: 420 a grid → 0.002 BTC = 420 USDT. Its margin and the 0.05 % fee on it are free.
    const ok = await call(t, 'POST', paths.addFunds, { botID, amount: 1100 }, auth);
    expect(ok).toMatchObject({ status: 200, body: { investment: '2100' } });
  });
});
