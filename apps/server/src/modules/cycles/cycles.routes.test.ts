import { botFills, bots } from '@gridbot/db';
import { eventually, ManualFeed } from '@gridbot/exchange/testing';
import { botMessages, type LiveCycle, cycleMessages as m } from '@gridbot/shared';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { asBinanceVenue, createTestApp, type TestApp, withSeparateWorker } from '../../testing/test-app';
import { runnerSettled } from '../../testing/waits';
import { PAPER_ACCOUNT_KEYS } from '../exchange/user-exchange';

let t: TestApp<ManualFeed>;
beforeAll(async () => {
  t = await createTestApp({}, { feed: new ManualFeed({ 'spot:ETHUSDT': '2000', 'future:ETHUSDT': '2000' }) });
});
afterAll(async () => {
  await t.close();
});

const keys = { apiKey: 'k'.repeat(64), secretKey: 'secret-secret-secret' };
const start = {
  category: 'Spot',
  pair: 'ETHUSDT',
  amount: 100,
  priceReachAt: 1990,
  sellPriceAt: 2010,
  stopLossAt: 1900,
  cycleCount: 2,
};

async function trader(prefix: string) {
  const user = await registerUser(t, prefix);
  await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
  return { ...user, auth: { token: user.token } };
}

const price = (p: number, market: 'spot' | 'future' = 'spot') =>
  t.feed.setPrice('ETHUSDT', market, String(p));

async function liveCycles(auth: { token: string }): Promise<LiveCycle[]> {
  const res = await call(t, 'GET', '/api/livecycles', undefined, auth);
  expect(res.status).toBe(200);
  return res.body.cycles as LiveCycle[];
}

async function startOne(auth: { token: string }, body: Record<string, unknown> = start) {
  const res = await call(t, 'POST', '/api/startcycledata', body, auth);
  expect(res.body).toMatchObject({ message: m.starting });
  return String(res.body.cycle_id);
}

describe('start cycle', () => {
  it.each([
    [{ ...start, category: undefined }, m.categoryRequired],
    [{ ...start, pair: '' }, m.pairRequired],
    [{ ...start, pair: 'FOOUSDT' }, m.pairRequired],
    [{ ...start, amount: '' }, m.amountRequired],
    [{ ...start, amount: 'abc' }, m.amountNumber],
    [{ ...start, priceReachAt: '' }, m.buyPriceRequired],
    [{ ...start, sellPriceAt: undefined }, m.sellPriceRequired],
    [{ ...start, priceReachAt: -5 }, m.priceNumber],
    [{ ...start, sellPriceAt: 1990 }, m.buyBelowSell],
    [{ ...start, sellPriceAt: 1500 }, m.buyBelowSell],
    [{ ...start, stopLossAt: 1995 }, m.stopLossAboveBuy],
    [{ ...start, cycleCount: 0 }, m.cycleCountRange],
    [{ ...start, cycleCount: 1001 }, m.cycleCountRange],
    [{ ...start, cycleCount: 2.5 }, m.cycleCountRange],
    [{ ...start, cycleCount: '' }, m.cycleCountRequired],
    [{ ...start, category: 'Future' }, m.leverageRange],
    [{ ...start, category: 'Future', leverage: 0 }, m.leverageRange],
    [{ ...start, category: 'Future', leverage: 11 }, m.leverageRange],
    [{ ...start, amount: 4 }, m.amountMin(5)],
    [{ ...start, category: 'Future', leverage: 2, amount: 9 }, m.amountMin(10)],
  ])('refuses %j with "%s"', async (body, message) => {
    const user = await trader('cv');
    const res = await call(t, 'POST', '/api/startcycledata', body, user.auth);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('accepts numeric strings, an absent stop loss and a 1000-cycle count; one per pair and category', async () => {
    const user = await trader('cs');
    const id = await startOne(user.auth, {
      ...start,
      amount: '100',
      priceReachAt: '1990',
      stopLossAt: '',
      cycleCount: 1000,
    });
    const [cycle] = await liveCycles(user.auth);
    expect(cycle).toMatchObject({
      id,
      pair: 'ETHUSDT',
      category: 'Spot',
      leverage: 1,
      status: 'Live',
      phase: 'WaitBuy',
      investment: 100,
      buy_price: 1990,
      sell_price: 2010,
      stop_loss: null,
      cycles_completed: 0,
      no_of_cycle: 1000,
      last_bought_price: null,
      liveprice: 2000,
    });
    const again = await call(t, 'POST', '/api/startcycledata', start, user.auth);
    expect(again).toMatchObject({ status: 400, body: { message: botMessages.alreadyRunning('ETHUSDT') } });
    const bot = await call(
      t,
      'POST',
      '/api/startbotdata',
      {
        botType: 'Multigrid',
        category: 'Spot',
        selectPair: 'ETHUSDT',
        myStrategy: 'Tight Range 5',
        amount: 500,
      },
      user.auth,
    );
    expect(bot).toMatchObject({ status: 400, body: { message: botMessages.alreadyRunning('ETHUSDT') } });
    // Cycles never show up among the bots.
    const bots = await call(t, 'GET', '/api/botstatus', undefined, user.auth);
    expect(bots.body.bots).toEqual([]);
    const botInfo = await call(t, 'POST', '/api/botinfo', { botID: id }, user.auth);
    expect(botInfo.status).toBe(404);
  });

  it('refuses more than the free balance, with the exchange wording', async () => {
    const user = await trader('cb');
    const res = await call(t, 'POST', '/api/startcycledata', { ...start, amount: 50_000 }, user.auth);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(new RegExp(`^${botMessages.insufficientBalance}`));
  });

  it('needs connected keys on Binance', async () => {
    const user = await registerUser(t, 'ck');
    await asBinanceVenue(t, async () => {
      const res = await call(t, 'POST', '/api/startcycledata', start, { token: user.token });
      expect(res).toMatchObject({ status: 400, body: { message: botMessages.notConnected } });
    });
  });
});

describe('a running cycle', () => {
  it('buys, sells, completes its cycles and lands in History', async () => {
    price(2000);
    const user = await trader('cl');
    const id = await startOne(user.auth);

    // The price falls from 2000 to 1985 through the buy price: the cycle buys where the line crossed it, at
    // 1990 (docs/trading-rules.md §2.5), as its backtest does.
    price(1985);
    await eventually(async () => {
      const [cycle] = await liveCycles(user.auth);
      expect(cycle).toMatchObject({ phase: 'Holding', last_bought_price: 1990, cycles_completed: 0 });
    });
    price(2015);
    await eventually(async () => {
      const [cycle] = await liveCycles(user.auth);
      expect(cycle).toMatchObject({ phase: 'WaitBuy', last_bought_price: null, cycles_completed: 1 });
      expect(cycle?.profit).toBeGreaterThan(0);
    });
    price(1980);
    await eventually(async () => expect((await liveCycles(user.auth))[0]?.phase).toBe('Holding'));
    price(2020);
    await eventually(async () => expect(await liveCycles(user.auth)).toEqual([]));

    const history = await call(t, 'GET', '/api/cyclebothistory', undefined, user.auth);
    const rows = history.body.rows as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id,
      symbol: 'ETHUSDT',
      investment: 100,
      stopReason: 'completed',
      trades: 4,
    });
    expect(Number(rows[0]?.profit)).toBeGreaterThan(0);
    const fills = await t.deps.db
      .select()
      .from(botFills)
      .where(eq(botFills.botId, id))
      .orderBy(asc(botFills.seq));
    expect(fills.map((f) => f.side)).toEqual(['buy', 'sell', 'buy', 'sell']);
    // Grid bot history does not list cycles.
    const botHistory = await call(t, 'GET', '/api/bothistory', undefined, user.auth);
    expect(botHistory.body.rows).toEqual([]);
  });

  it('edits its prices and count, with the spec message for a stop loss above the buy price', async () => {
    price(2000);
    const user = await trader('ce');
    const id = await startOne(user.auth);
    const edit = { cycle_id: id, buy_price: 1950, sell_price: 2050, stop_loss: 1900, no_of_cycle: 3 };

    const bad = await call(t, 'POST', '/api/editcycle', { ...edit, stop_loss: 1960 }, user.auth);
    expect(bad).toMatchObject({ status: 400, body: { message: m.stopLossAboveBuy } });
    const inverted = await call(t, 'POST', '/api/editcycle', { ...edit, sell_price: 1900 }, user.auth);
    expect(inverted).toMatchObject({ status: 400, body: { message: m.buyBelowSell } });
    const count = await call(t, 'POST', '/api/editcycle', { ...edit, no_of_cycle: 1001 }, user.auth);
    expect(count).toMatchObject({ status: 400, body: { message: m.cycleCountRange } });

    const ok = await call(t, 'POST', '/api/editcycle', edit, user.auth);
    expect(ok).toMatchObject({ status: 200, body: { message: m.updated } });
    const [cycle] = await liveCycles(user.auth);
    expect(cycle).toMatchObject({ buy_price: 1950, sell_price: 2050, stop_loss: 1900, no_of_cycle: 3 });

    // The new buy price is what the engine now waits for: 1960 no longer buys.
    price(1960);
    await runnerSettled(t.supervisor, id);
    expect((await liveCycles(user.auth))[0]?.phase).toBe('WaitBuy');
    const noStop = await call(t, 'POST', '/api/editcycle', { ...edit, stop_loss: null }, user.auth);
    expect(noStop.status).toBe(200);
    expect((await liveCycles(user.auth))[0]?.stop_loss).toBeNull();
    await call(t, 'POST', '/api/stopcycle', { cycle_id: id }, user.auth);
  });

  it('stops with sell while holding, and only stops otherwise', async () => {
    price(2000);
    const user = await trader('cx');
    const id = await startOne(user.auth);

    const nothing = await call(t, 'POST', '/api/stopcyclewithsell', { cycle_id: id }, user.auth);
    expect(nothing).toMatchObject({ status: 400, body: { message: m.notHolding } });
    price(1985);
    await eventually(async () => expect((await liveCycles(user.auth))[0]?.phase).toBe('Holding'));
    const sold = await call(t, 'POST', '/api/stopcyclewithsell', { cycle_id: id }, user.auth);
    expect(sold).toMatchObject({ status: 200, body: { message: m.stoppedSold } });
    await eventually(async () => expect(await liveCycles(user.auth)).toEqual([]));
    const [row] = await t.deps.db.select().from(bots).where(eq(bots.id, id));
    expect(row).toMatchObject({ status: 'Stopped', stopReason: 'manual_sell' });

    const again = await call(t, 'POST', '/api/stopcycle', { cycle_id: id }, user.auth);
    expect(again).toMatchObject({ status: 400, body: { message: m.notRunning } });

    price(2000);
    const second = await startOne(user.auth);
    const stopped = await call(t, 'POST', '/api/stopcycle', { cycle_id: second }, user.auth);
    expect(stopped).toMatchObject({ status: 200, body: { message: m.stopped } });
    const history = await call(t, 'GET', '/api/cyclebothistory', undefined, user.auth);
    expect((history.body.rows as { id: string }[]).map((r) => r.id).sort()).toEqual([id, second].sort());
  });

  it('resumes a cycle the runtime paused after its buys kept failing', async () => {
    price(2000);
    const user = await trader('cr');
    const id = await startOne(user.auth);
    const resume = (auth = user.auth) => call(t, 'POST', '/api/resumecycle', { cycle_id: id }, auth);
    expect((await resume()).body).toEqual({ message: m.notHalted });
    // No USDT left on spot: the buy is refused on three ticks in a row, and the runtime pauses the cycle.
    // The wallet never moves a bot's funds, so they leave the way they would on Binance: outside the platform.
    const me = await call(t, 'GET', '/api/me', undefined, user.auth);
    const account = t.deps.exchanges.forUser((me.body.user as { id: string }).id, PAPER_ACCOUNT_KEYS);
    const move = async (_from: string, _to: string, url: string) => {
      await account.transfer(url.endsWith('spottofutures') ? 'spot_to_future' : 'future_to_spot', '10000');
      return { status: 200 };
    };
    expect((await move('Spot', 'Futures', '/api/transferspottofutures')).status).toBe(200);
    await eventually(async () => {
      price(1985);
      const [cycle] = await liveCycles(user.auth);
      expect(cycle).toMatchObject({ status: 'Pause', phase: 'WaitBuy' });
      expect(cycle?.haltReason).toMatch(/^Orders keep failing/);
    });

    expect((await move('Futures', 'Spot', '/api/transferfuturestospot')).status).toBe(200);
    expect((await resume()).body).toEqual({ success: true, message: m.resumed });
    await eventually(async () => {
      price(1985);
      const [cycle] = await liveCycles(user.auth);
      expect(cycle).toMatchObject({ status: 'Live', haltReason: null, phase: 'Holding' });
    });
    // Another user's cycle reads as missing; a stopped cycle cannot be resumed.
    const other = await trader('cro');
    expect(await resume(other.auth)).toMatchObject({ status: 404, body: { message: m.cycleNotFound } });
    await call(t, 'POST', '/api/stopcyclewithsell', { cycle_id: id }, user.auth);
    expect(await resume()).toMatchObject({ status: 400, body: { message: m.notHalted } });
  });

  /**
   * A cycle of a new trader holding ETH, which the trader then sold outside the platform: the runtime's check
   * of the account (every minute on Binance) pauses it.
   */
  async function cycleWithCoinsSoldOutside(prefix: string) {
    price(2000);
    const user = await trader(prefix);
    const id = await startOne(user.auth);
    price(1985);
    await eventually(async () => expect((await liveCycles(user.auth))[0]?.phase).toBe('Holding'));
    const me = await call(t, 'GET', '/api/me', undefined, user.auth);
    const account = t.deps.exchanges.forUser((me.body.user as { id: string }).id, PAPER_ACCOUNT_KEYS);
    const eth = (await account.balances('spot')).find((b) => b.asset === 'ETH')!;
    await account.convertToUsdt('ETH', eth.free);
    await t.supervisor.runner(id)?.checkHoldings();
    const [paused] = await liveCycles(user.auth);
    expect(paused).toMatchObject({
      status: 'Pause',
      haltReason: expect.stringMatching(/this cycle's holding/),
    });
    const resume = (missingLots?: string) =>
      call(t, 'POST', '/api/resumecycle', { cycle_id: id, missingLots }, user.auth);
    return { user, id, account, resume, haltReason: paused?.haltReason };
  }

  it('asks a cycle whose coins were sold outside the platform first, and drops its lot before answering', async () => {
    const { user, id, account, resume } = await cycleWithCoinsSoldOutside('cmd');
    expect(await resume()).toMatchObject({
      status: 400,
      body: { message: botMessages.missingLotsChoiceNeeded },
    });
    const engine = async () => {
      const [row] = await t.deps.db.select().from(bots).where(eq(bots.id, id));
      return row?.engineState as { lots: { qty: number }[]; account: { missingQty?: number } };
    };
    const lotQty = (await engine()).lots[0]!.qty;
    // The swap sold to the step: the account keeps what is below it.
    const left = (await account.balances('spot')).find((b) => b.asset === 'ETH')?.free ?? '0';
    price(2000); // above the buy price: nothing is bought again meanwhile
    await withSeparateWorker(t, async () => {
      expect(await resume('drop')).toMatchObject({
        status: 200,
        body: { success: true, message: m.resumed },
      });
      // Answered once done: the lot holds what the account holds, the rest is booked as missing.
      const after = await engine();
      expect(after.lots.map((lot) => lot.qty)).toEqual(Number(left) > 0 ? [Number(left)] : []);
      expect(after.account.missingQty).toBeCloseTo(lotQty - Number(left), 12);
      const [cycle] = await liveCycles(user.auth);
      expect(cycle).toMatchObject({ status: 'Live', haltReason: null, cycles_completed: 0 });
    });
    await call(t, 'POST', '/api/stopcycle', { cycle_id: id }, user.auth);
  });

  it("refuses a cycle's re-buy the free spot USDT cannot pay, and answers a re-buy once it is bought", async () => {
    const { user, id, account, resume, haltReason } = await cycleWithCoinsSoldOutside('cmr');
    const free = Number((await call(t, 'GET', '/api/spotBalance', undefined, user.auth)).body.spotusdtAmount);
    const moved = (Math.floor((free - 1) * 100) / 100).toFixed(2);
    await account.transfer('spot_to_future', moved);
    const refused = await resume('rebuy');
    expect(refused.status).toBe(400);
    const [qty, needed] = /the missing ([\d.]+) ETH needs ([\d.]+) USDT/
      .exec(String(refused.body.message))!
      .slice(1);
    expect(refused.body.message).toBe(botMessages.rebuyUnaffordable(qty!, 'ETH', needed!, '1.00'));
    expect((await liveCycles(user.auth))[0]).toMatchObject({ status: 'Pause', haltReason });

    await account.transfer('future_to_spot', moved);
    await withSeparateWorker(t, async () => {
      expect(await resume('rebuy')).toMatchObject({ status: 200, body: { message: m.resumed } });
      const [cycle] = await liveCycles(user.auth);
      expect(cycle).toMatchObject({ status: 'Live', phase: 'Holding', cycles_completed: 0 });
      const fills = await t.deps.db
        .select()
        .from(botFills)
        .where(eq(botFills.botId, id))
        .orderBy(asc(botFills.seq));
      expect(fills.map((f) => f.side)).toEqual(['buy', 'buy']);
    });
    await call(t, 'POST', '/api/stopcycle', { cycle_id: id }, user.auth);
  });

  it('runs on futures with leverage', async () => {
    price(2000, 'future');
    const user = await trader('cf');
    await call(
      t,
      'POST',
      '/api/transferspottofutures',
      { from: 'Spot', to: 'Futures', coin: 'USDT', amount: 500 },
      user.auth,
    );
    const id = await startOne(user.auth, { ...start, category: 'Future', leverage: 3, amount: 100 });
    price(1985, 'future');
    await eventually(async () => {
      const [cycle] = await liveCycles(user.auth);
      expect(cycle).toMatchObject({ id, category: 'Future', leverage: 3, phase: 'Holding' });
    });
    const fills = await t.deps.db
      .select()
      .from(botFills)
      .where(eq(botFills.botId, id))
      .orderBy(asc(botFills.seq));
    // 100 USDT of margin × 3 buys about 300 USDT of ETH.
    expect(Number(fills[0]?.quote)).toBeGreaterThan(290);
    await call(t, 'POST', '/api/stopcyclewithsell', { cycle_id: id }, user.auth);
  });

  it("answers 404 for another user's cycle and for nonsense ids", async () => {
    price(2000);
    const owner = await trader('co');
    const other = await trader('cz');
    const id = await startOne(owner.auth);
    for (const [path, body] of [
      [
        '/api/editcycle',
        { cycle_id: id, buy_price: 1950, sell_price: 2050, stop_loss: null, no_of_cycle: 2 },
      ],
      ['/api/stopcycle', { cycle_id: id }],
      ['/api/stopcyclewithsell', { cycle_id: id }],
      ['/api/stopcycle', { cycle_id: 'not-a-uuid' }],
    ] as const) {
      const res = await call(t, 'POST', path, body, other.auth);
      expect(res).toMatchObject({ status: 404, body: { message: m.cycleNotFound } });
    }
    expect(await liveCycles(other.auth)).toEqual([]);
    const history = await call(t, 'GET', '/api/cyclebothistory', undefined, other.auth);
    expect(history.body.rows).toEqual([]);
    const unauth = await call(t, 'GET', '/api/livecycles');
    expect(unauth.status).toBe(401);
    await call(t, 'POST', '/api/stopcycle', { cycle_id: id }, owner.auth);
  });
});
