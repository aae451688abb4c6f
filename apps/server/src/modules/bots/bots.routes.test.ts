import { bots } from '@gridbot/db';
import { eventually } from '@gridbot/exchange/testing';
import {
  coinCommission,
  botMessages as m,
  money,
  startReadinessMessages,
  takeProfitFeeWarning,
} from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { multigridBody } from '../../testing/strategies';
import { asBinanceVenue, createTestApp, type TestApp, withSeparateWorker } from '../../testing/test-app';
import { PAPER_ACCOUNT_KEYS } from '../exchange/user-exchange';

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
  return { ...user, auth: { token: user.token } };
}

describe('start bot', () => {
  it.each([
    [{ ...start, category: undefined }, m.categoryRequired],
    [{ ...start, selectPair: '' }, m.pairRequired],
    [{ ...start, myStrategy: '' }, m.strategyRequired],
    [{ ...start, amount: '' }, m.amountRequired],
    [{ ...start, amount: 'abc' }, m.amountNumber],
    [{ ...start, category: 'Future' }, m.leverageRequired],
    [{ ...start, category: 'Future', leverage: 0 }, m.leverageMin],
    [{ ...start, category: 'Future', leverage: 11 }, m.leverageMax],
    [{ ...start, category: 'Future', leverage: 2.5 }, m.leverageWhole],
    [{ ...start, profitbookat: 'x' }, m.profitBookNumber],
    [{ ...start, sellPausePrice: 'x' }, m.sellPauseNumber],
    [{ ...start, restartPrice: 'x' }, m.restartNumber],
    [{ ...start, stoplossPrice: 'x' }, m.stoplossNumber],
    [{ ...start, amount: 99 }, m.amountMin(100)],
    [{ ...start, myStrategy: 'Deep Ladder 20', amount: 150 }, m.insufficientForGrids(20, 200)],
    [{ ...start, myStrategy: 'No Such Strategy' }, m.strategyNotFound],
  ])('refuses %j with "%s"', async (body, message) => {
    const user = await trader('sv');
    const res = await call(t, 'POST', '/api/startbotdata', body, user.auth);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('names the grid below the exchange minimum', async () => {
    const user = await trader('mn');
    // Steady Ladder 10 on 100 USDT: each grid gets 10 USDT; BTCUSDT spot needs 5, so use futures' 100.
    await call(
      t,
      'POST',
      '/api/transferspottofutures',
      { from: 'Spot', to: 'Futures', coin: 'USDT', amount: 500 },
      user.auth,
    );
    const res = await call(
      t,
      'POST',
      '/api/startbotdata',
      {
        ...start,
        selectPair: 'BTCUSDT',
        category: 'Future',
        leverage: 1,
        myStrategy: 'Steady Ladder 10',
        amount: 200,
      },
      user.auth,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Grid 1/);
    expect(res.body.message).toMatch(/100/);
  });

  it('refuses more than the free balance and a second bot on the same pair', async () => {
    const user = await trader('bal');
    const tooMuch = await call(t, 'POST', '/api/startbotdata', { ...start, amount: 20_000 }, user.auth);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toContain(m.insufficientBalance);
    const ok = await call(t, 'POST', '/api/startbotdata', start, user.auth);
    expect(ok).toMatchObject({ status: 200, body: { message: m.startCreated } });
    const again = await call(t, 'POST', '/api/startbotdata', start, user.auth);
    expect(again).toMatchObject({ status: 400, body: { message: m.alreadyRunning('ETHUSDT') } });
  });

  it('checks the balance against what the buys take, beside the funds running bots hold', async () => {
    const user = await trader('fee');
    // A new paper account holds 10,000 USDT spot. A spot buy's fee comes out of the coin bought
    // (docs/trading-rules.md §2.1), so grids of 10,000.5 USDT are too much and the whole 10,000 is enough.
    const over = await call(t, 'POST', '/api/startbotdata', { ...start, amount: 10_000.5 }, user.auth);
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(
      `${m.insufficientBalance}: 10000.00 USDT free in your spot wallet; the bot needs 10000.50 USDT including fees.`,
    );
    // A running bot keeps its unspent 500 USDT: 9,500 stay free.
    const first = await call(t, 'POST', '/api/startbotdata', start, user.auth);
    expect(first).toMatchObject({ status: 200, body: { message: m.startCreated } });
    const btc = { ...start, selectPair: 'BTCUSDT' };
    const rest = await call(t, 'POST', '/api/startbotdata', { ...btc, amount: 9_500.5 }, user.auth);
    expect(rest.status).toBe(400);
    expect(rest.body.message).toBe(
      `${m.insufficientBalance}: 9500.00 USDT free in your spot wallet; the bot needs 9500.50 USDT including fees.`,
    );
    const whole = await call(t, 'POST', '/api/startbotdata', { ...btc, amount: 9_500 }, user.auth);
    expect(whole).toMatchObject({ status: 200, body: { message: m.startCreated } });
  });

  it('needs bound API keys on Binance', async () => {
    const user = await registerUser(t, 'nk');
    await asBinanceVenue(t, async () => {
      const res = await call(t, 'POST', '/api/startbotdata', start, { token: user.token });
      expect(res).toMatchObject({ status: 400, body: { message: m.notConnected } });
    });
  });

  it('starts on the paper exchange without any API key, and records that exchange on the bot', async () => {
    const user = await registerUser(t, 'nokey');
    const res = await call(t, 'POST', '/api/startbotdata', start, { token: user.token });
    expect(res).toMatchObject({ status: 200, body: { message: m.startCreated } });
    const [row] = await t.handle.db
      .select()
      .from(bots)
      .where(eq(bots.id, String(res.body.botId)));
    expect(row?.venue).toBe('paper');
  });
});

describe('a running bot', () => {
  it('trades, shows its stats and order book, takes edits and stops with sell', async () => {
    const user = await trader('run');
    const started = await call(t, 'POST', '/api/startbotdata', start, user.auth);
    const botID = String(started.body.botId);

    t.feed.step(); // one tick: an empty stack buys grid 1 at market
    await eventually(async () => {
      const book = await call(t, 'POST', '/api/orderbook', { botID }, user.auth);
      expect((book.body.orders as unknown[]).length).toBe(1);
    });
    const info = await call(t, 'POST', '/api/botinfo', { botID }, user.auth);
    expect(info.body).toMatchObject({
      id: botID,
      name: 'ETHUSDT',
      category: 'Spot',
      status: 'Live',
      grid_no: 1,
      total_grid: 5,
    });
    // The chart's levels (docs/trading-rules.md §2.2; Tight Range 5: buy 0.8 %, tp 0.8 % on every grid):
    // grid 2 arms 0.8 % below grid 1's price, grid 1 takes profit 0.8 % above it.
    const lastBuy = Number(info.body.last_buying_price);
    expect(info.body.levels).toEqual({
      nextBuy: { grid: 2, price: Number((lastBuy * 0.992).toFixed(8)) },
      takeProfits: [{ grid: 1, price: Number((lastBuy * 1.008).toFixed(8)), armed: false }],
      pause: null,
      restart: null,
      stoploss: null,
    });
    const status = await call(t, 'GET', '/api/botstatus', undefined, user.auth);
    expect((status.body.bots as { id: string }[]).map((b) => b.id)).toEqual([botID]);
    const qty = await call(t, 'POST', '/api/purchasedQty', { botID }, user.auth);
    expect(Number(qty.body.totalQuantity)).toBeGreaterThan(0);
    const pie = await call(t, 'GET', '/api/pichart', undefined, user.auth);
    expect(pie.body.chartData).toEqual([{ label: 'ETH/USDT Spot', value: 500 }]);

    const live = Number(info.body.liveprice);
    const badPause = await call(
      t,
      'POST',
      '/api/sltpedit',
      { botID, sellAllAndPausePrice: live * 0.9, restartPrice: null, stoplossPrice: null },
      user.auth,
    );
    expect(badPause).toMatchObject({ status: 400, body: { message: m.pauseAboveLive } });
    const badStop = await call(
      t,
      'POST',
      '/api/sltpedit',
      { botID, sellAllAndPausePrice: null, restartPrice: null, stoplossPrice: live * 1.1 },
      user.auth,
    );
    expect(badStop).toMatchObject({ status: 400, body: { message: m.stoplossBelowLive } });
    const sltp = await call(
      t,
      'POST',
      '/api/sltpedit',
      { botID, sellAllAndPausePrice: live * 1.5, restartPrice: live * 0.9, stoplossPrice: live * 0.5 },
      user.auth,
    );
    expect(sltp).toMatchObject({ status: 200, body: { message: m.sltpUpdated } });
    expect(
      (await call(t, 'POST', '/api/sltp', { botID }, user.auth)).body.stoploss_and_stopbot_at_price,
    ).toBeCloseTo(live * 0.5);
    const reset = await call(
      t,
      'POST',
      '/api/sltpedit',
      { botID, sellAllAndPausePrice: null, restartPrice: null, stoplossPrice: null },
      user.auth,
    );
    expect(reset.body.message).toBe(m.sltpReset);

    expect(
      (
        await call(
          t,
          'POST',
          '/api/gridprotectionadd',
          { botID, overbuyProtectionValue: 5, protectionActive: true },
          user.auth,
        )
      ).body.message,
    ).toBe(m.overbuyRange(4));
    expect(
      (
        await call(
          t,
          'POST',
          '/api/gridprotectionadd',
          { botID, overbuyProtectionValue: 3, protectionActive: true },
          user.auth,
        )
      ).body.message,
    ).toBe(m.overbuySaved);
    expect((await call(t, 'POST', '/api/protectionvalues', { botID }, user.auth)).body).toEqual({
      is_protection_active: true,
      protection_grid_at: 3,
      total_grid: 5,
    });
    expect(
      (await call(t, 'POST', '/api/editprofitbookat', { botID, profitBookValue: 0.5 }, user.auth)).body
        .message,
    ).toBe(m.profitBookMin);
    expect(
      (await call(t, 'POST', '/api/editprofitbookat', { botID, profitBookValue: 25 }, user.auth)).body
        .message,
    ).toBe(m.profitBookSaved);
    expect((await call(t, 'POST', '/api/profitbookat', { botID }, user.auth)).body).toEqual({
      profitbookat: 25,
    });

    const stopped = await call(
      t,
      'POST',
      '/api/stopbotwithsell',
      { botID, botData: {}, totalPnl: 0 },
      user.auth,
    );
    expect(stopped).toMatchObject({ status: 200, body: { message: m.stoppedSold } });
    const book = await call(t, 'POST', '/api/orderbook', { botID }, user.auth);
    const orders = book.body.orders as { type: string; quantity: number }[];
    expect(orders.map((o) => o.type)).toEqual(['SELL', 'BUY']);
    // The stopped bot's page shows the dust its sale left (docs/trading-rules.md §2.1): the buy's commission came
    // out of the ETH bought, and what stays below the step of the sale (0.0001 ETH) is left in the account.
    const bought = money(orders[1]!.quantity);
    const dust = bought.minus(coinCommission(bought, 0.1)).minus(orders[0]!.quantity);
    expect(dust.gt(0)).toBe(true);
    const stoppedInfo = await call(t, 'POST', '/api/botinfo', { botID }, user.auth);
    expect(stoppedInfo.body).toMatchObject({
      status: 'Stopped',
      dust: { qty: dust.toNumber(), asset: 'ETH' },
    });
    const price = stoppedInfo.body.liveprice as number;
    expect((stoppedInfo.body.dust as { value: number }).value).toBeCloseTo(dust.times(price).toNumber(), 8);
    const history = await call(t, 'GET', '/api/bothistory', undefined, user.auth);
    expect(history.body.rows).toMatchObject([
      { id: botID, symbol: 'ETHUSDT', trades: 2, stopReason: 'manual_sell' },
    ]);
    expect((await call(t, 'GET', '/api/botstatus', undefined, user.auth)).body.bots).toEqual([]);
    const again = await call(t, 'POST', '/api/stopbot', { botID }, user.auth);
    expect(again).toMatchObject({ status: 400, body: { message: m.botNotRunning } });
  });

  it('answers "stopped and sold" only for a sale that happened: a refused sale answers its reason', async () => {
    const user = await trader('sold');
    const botID = String((await call(t, 'POST', '/api/startbotdata', start, user.auth)).body.botId);
    t.feed.step(); // grid 1 buys at market
    await eventually(async () => {
      const book = await call(t, 'POST', '/api/orderbook', { botID }, user.auth);
      expect((book.body.orders as unknown[]).length).toBe(1);
    });
    // The coins the bot bought are sold outside the platform (the wallet refuses to swap a bot's coins, but
    // on Binance the user can still trade them away): its sale cannot go through.
    const assets = (await call(t, 'GET', '/api/spotAssets', undefined, user.auth)).body.assets as {
      asset: string;
      balance: string;
    }[];
    const eth = assets.find((a) => a.asset === 'ETH')!;
    const me = await call(t, 'GET', '/api/me', undefined, user.auth);
    const account = t.deps.exchanges.forUser((me.body.user as { id: string }).id, PAPER_ACCOUNT_KEYS);
    await account.convertToUsdt('ETH', eth.balance);

    const stop = await call(
      t,
      'POST',
      '/api/stopbotwithsell',
      { botID, botData: {}, totalPnl: 0 },
      user.auth,
    );
    expect(stop.status).toBe(400);
    expect(stop.body.message).not.toBe(m.stoppedSold);
    expect(stop.body.message).toMatch(new RegExp(`^${m.stopSellFailed}: .*[Ii]nsufficient`));
    const book = await call(t, 'POST', '/api/orderbook', { botID }, user.auth);
    expect((book.body.orders as { type: string }[]).map((o) => o.type)).toEqual(['BUY']);
    // Not stopped: the bot still holds its lot and tries to sell again, visibly.
    const info = await call(t, 'POST', '/api/botinfo', { botID }, user.auth);
    expect(info.body.status).not.toBe('Stopped');
  });

  it('resumes a bot the runtime paused after its orders kept failing', async () => {
    const user = await trader('rsm');
    const botID = String((await call(t, 'POST', '/api/startbotdata', start, user.auth)).body.botId);
    const resume = () => call(t, 'POST', '/api/resumebot', { botID }, user.auth);
    expect((await resume()).body.message).toBe(m.botNotHalted);
    // No USDT left on spot: the grid-1 buy is refused on three ticks in a row, and the runtime pauses it.
    // The wallet never moves a bot's funds, so they leave the way they would on Binance: outside the platform.
    const me = await call(t, 'GET', '/api/me', undefined, user.auth);
    const account = t.deps.exchanges.forUser((me.body.user as { id: string }).id, PAPER_ACCOUNT_KEYS);
    const move = async (_from: string, _to: string, url: string) => {
      await account.transfer(url.endsWith('spottofutures') ? 'spot_to_future' : 'future_to_spot', '10000');
      return { status: 200 };
    };
    expect((await move('Spot', 'Futures', '/api/transferspottofutures')).status).toBe(200);
    await eventually(async () => {
      t.feed.step();
      const info = await call(t, 'POST', '/api/botinfo', { botID }, user.auth);
      expect(info.body.haltReason).toMatch(/^Orders keep failing/);
    });
    // An edit while halted is applied, and the bot stays paused (its engine status is Live).
    const edited = await call(t, 'POST', '/api/editprofitbookat', { botID, profitBookValue: 5 }, user.auth);
    expect(edited.body.message).toBe(m.profitBookSaved);
    const halted = await call(t, 'POST', '/api/botinfo', { botID }, user.auth);
    expect(halted.body).toMatchObject({ status: 'Pause', haltReason: expect.stringMatching(/^Orders keep/) });

    expect((await move('Futures', 'Spot', '/api/transferfuturestospot')).status).toBe(200);
    // The choice about coins sold outside the platform is refused for any other pause, and must be one of two.
    const drop = await call(t, 'POST', '/api/resumebot', { botID, missingLots: 'drop' }, user.auth);
    expect(drop.body.message).toBe(m.notPausedForMissingCoins);
    const sell = await call(t, 'POST', '/api/resumebot', { botID, missingLots: 'sell' }, user.auth);
    expect(sell.status).toBe(400);
    const resumed = await resume();
    expect(resumed.body).toEqual({ success: true, message: m.resumed });
    const info = await call(t, 'POST', '/api/botinfo', { botID }, user.auth);
    expect(info.body).toMatchObject({ status: 'Live', haltReason: null });
    await eventually(async () => {
      t.feed.step();
      const book = await call(t, 'POST', '/api/orderbook', { botID }, user.auth);
      expect((book.body.orders as unknown[]).length).toBe(1);
    });
    // Another user's bot reads as missing; a stopped bot cannot be resumed.
    const other = await trader('rso');
    expect((await call(t, 'POST', '/api/resumebot', { botID }, other.auth)).status).toBe(404);
    await call(t, 'POST', '/api/stopbot', { botID }, user.auth);
    expect((await resume()).body.message).toBe(m.botNotHalted);
  });

  /**
   * A bot of a new trader that bought grid 1, whose ETH the trader then sold outside the platform (the wallet
   * refuses to swap a bot's coins, but on Binance the user can still trade them away): the runtime's check of
   * the account pauses it, as it does every minute on Binance.
   */
  async function botWithCoinsSoldOutside(prefix: string) {
    const user = await trader(prefix);
    const botID = String((await call(t, 'POST', '/api/startbotdata', start, user.auth)).body.botId);
    t.feed.step(); // grid 1 buys at market
    await eventually(async () => {
      const book = await call(t, 'POST', '/api/orderbook', { botID }, user.auth);
      expect((book.body.orders as unknown[]).length).toBe(1);
    });
    const me = await call(t, 'GET', '/api/me', undefined, user.auth);
    const account = t.deps.exchanges.forUser((me.body.user as { id: string }).id, PAPER_ACCOUNT_KEYS);
    const eth = (await account.balances('spot')).find((b) => b.asset === 'ETH')!;
    await account.convertToUsdt('ETH', eth.free);
    await t.supervisor.runner(botID)?.checkHoldings();
    const info = await call(t, 'POST', '/api/botinfo', { botID }, user.auth);
    expect(info.body).toMatchObject({ status: 'Pause', haltReason: expect.stringMatching(/sold outside/) });
    const engine = async () => {
      const [row] = await t.deps.db.select().from(bots).where(eq(bots.id, botID));
      return row?.engineState as { lots: { qty: number }[]; account: { missingQty?: number } };
    };
    // What the lots hold beyond the account now (the swap sells to the step, leaving the rest).
    const left = (await account.balances('spot')).find((b) => b.asset === 'ETH')?.free ?? '0';
    const lotsQty = (await engine()).lots.reduce((sum, lot) => sum.plus(lot.qty), money(0));
    const sold = lotsQty.minus(left).toNumber();
    return { user, botID, account, haltReason: String(info.body.haltReason), engine, sold };
  }

  it('asks a bot paused over coins sold outside the platform to re-buy or drop them before it resumes', async () => {
    const { user, botID, engine, sold } = await botWithCoinsSoldOutside('rmc');
    const plain = await call(t, 'POST', '/api/resumebot', { botID }, user.auth);
    expect(plain).toMatchObject({ status: 400, body: { message: m.missingLotsChoiceNeeded } });
    const other = await trader('rmo');
    const foreign = await call(t, 'POST', '/api/resumebot', { botID, missingLots: 'drop' }, other.auth);
    expect(foreign.status).toBe(404);
    // The answer comes once the bot has dropped the lots, even with the bots run by another process.
    await withSeparateWorker(t, async () => {
      const dropped = await call(t, 'POST', '/api/resumebot', { botID, missingLots: 'drop' }, user.auth);
      expect(dropped).toMatchObject({ status: 200, body: { success: true, message: m.resumed } });
      expect((await engine()).account.missingQty).toBe(sold);
      const info = await call(t, 'POST', '/api/botinfo', { botID }, user.auth);
      expect(info.body).toMatchObject({ status: 'Live', haltReason: null });
    });
    await call(t, 'POST', '/api/stopbot', { botID }, user.auth);
  });

  it('refuses a re-buy the free spot USDT cannot pay, naming the amount, and answers a re-buy once it is bought', async () => {
    const { user, botID, account, haltReason, engine } = await botWithCoinsSoldOutside('rbu');
    // All the free USDT but 1 leaves the spot wallet (what the bot holds for its grids is not free).
    const free = Number((await call(t, 'GET', '/api/spotBalance', undefined, user.auth)).body.spotusdtAmount);
    const moved = (Math.floor((free - 1) * 100) / 100).toFixed(2);
    await account.transfer('spot_to_future', moved);
    const refused = await call(t, 'POST', '/api/resumebot', { botID, missingLots: 'rebuy' }, user.auth);
    expect(refused.status).toBe(400);
    const [qty, needed] = /the missing ([\d.]+) ETH needs ([\d.]+) USDT/
      .exec(String(refused.body.message))!
      .slice(1);
    expect(refused.body.message).toBe(m.rebuyUnaffordable(qty!, 'ETH', needed!, '1.00'));
    expect(Number(needed)).toBeGreaterThan(1);
    // Nothing changed: still paused with its reason, no order sent.
    const info = await call(t, 'POST', '/api/botinfo', { botID }, user.auth);
    expect(info.body).toMatchObject({ status: 'Pause', haltReason });
    const book = await call(t, 'POST', '/api/orderbook', { botID }, user.auth);
    expect((book.body.orders as unknown[]).length).toBe(1);

    await account.transfer('future_to_spot', moved);
    await withSeparateWorker(t, async () => {
      const rebought = await call(t, 'POST', '/api/resumebot', { botID, missingLots: 'rebuy' }, user.auth);
      expect(rebought).toMatchObject({ status: 200, body: { success: true, message: m.resumed } });
      // Answered once the re-buy is booked: its BUY row is there, and the lots equal the account again.
      const after = await call(t, 'POST', '/api/orderbook', { botID }, user.auth);
      expect((after.body.orders as { type: string }[]).map((o) => o.type)).toEqual(['BUY', 'BUY']);
      const eth = (await account.balances('spot')).find((b) => b.asset === 'ETH')!;
      const { lots } = await engine();
      expect(lots.reduce((sum, lot) => sum + lot.qty, 0)).toBeCloseTo(Number(eth.free), 8);
    });
    await call(t, 'POST', '/api/stopbot', { botID }, user.auth);
  });

  it('answers 404 to another user on every bot endpoint', async () => {
    const owner = await trader('own');
    const botID = String(
      (
        await call(
          t,
          'POST',
          '/api/startscalp',
          { ...start, botType: 'Scalping', myStrategy: 'Scalp Light 3' },
          owner.auth,
        )
      ).body.botId,
    );
    const other = await trader('oth');
    for (const url of [
      '/api/scalpbotinfo',
      '/api/scalporderbook',
      '/api/scalppurchasedQty',
      '/api/scalpposition',
      '/api/sltp',
      '/api/sltpedit',
      '/api/protectionvalues',
      '/api/gridprotectionadd',
      '/api/profitbookat',
      '/api/editprofitbookat',
      '/api/scalpstopbot',
      '/api/scalpstopbotwithsell',
      '/api/scalpresumebot',
      '/api/botinfo',
    ]) {
      const res = await call(t, 'POST', url, { botID }, other.auth);
      expect(res.status, url).toBe(404);
    }
    expect((await call(t, 'POST', '/api/scalpstopbot', { botID }, owner.auth)).body.message).toBe(m.stopped);
  });

  it('leaves a bot younger than a day out of Copy BOTs', async () => {
    const owner = await trader('top');
    await call(t, 'POST', '/api/startbotdata', { ...start, selectPair: 'SOLUSDT' }, owner.auth);
    const viewer = await trader('viewer');
    const top = await call(t, 'GET', '/api/livebotdata?pair=SOLUSDT', undefined, viewer.auth);
    expect(top.body).toEqual({ bots: [] });
  });
});

describe('start check', () => {
  const check = (auth: { token: string }, query: string) =>
    call(t, 'GET', `/api/startcheck?${query}`, undefined, auth);

  it('tells a paper user without keys nothing blocks a spot start, and points an empty futures wallet to Transfer', async () => {
    const user = await registerUser(t, 'chk');
    const auth = { token: user.token };
    expect((await check(auth, 'category=Spot&pair=ETHUSDT')).body).toEqual({
      venue: 'paper',
      freeUsdt: '10000',
      blockers: [],
      feeWarning: null,
    });
    const future = await check(auth, 'category=Future&pair=ETHUSDT');
    expect(future.body).toMatchObject({
      freeUsdt: '0',
      blockers: [
        {
          code: 'futures_empty',
          message: startReadinessMessages.futuresEmpty,
          link: { to: '/mywallet', label: 'Transfer' },
        },
      ],
    });
  });

  it('names missing keys on Binance and a bot already on the pair', async () => {
    const user = await registerUser(t, 'chk2');
    const auth = { token: user.token };
    await asBinanceVenue(t, async () => {
      const res = await check(auth, 'category=Spot&pair=ETHUSDT');
      expect(res.body).toMatchObject({
        venue: 'binance',
        freeUsdt: null,
        blockers: [{ code: 'keys', link: { to: '/api-setting' } }],
      });
    });
    expect((await call(t, 'POST', '/api/startbotdata', start, auth)).status).toBe(200);
    const taken = await check(auth, 'category=Spot&pair=ETHUSDT');
    expect(taken.body.blockers).toEqual([{ code: 'pair_taken', message: m.alreadyRunning('ETHUSDT') }]);
    expect((await check(auth, 'category=Spot&pair=BTCUSDT')).body.blockers).toEqual([]);
  });

  it('warns when a take-profit is below the round-trip fee, showing the fee', async () => {
    const user = await registerUser(t, 'chkfee');
    const auth = { token: user.token };
    const body = multigridBody('Thin Edge', 2);
    body.tableData[1]!.takeProfitPercentage = 0.02;
    expect((await call(t, 'POST', '/api/strategy', body, auth)).status).toBe(200);
    const spot = await check(auth, 'category=Spot&pair=ETHUSDT&botType=Multigrid&strategy=Thin%20Edge');
    expect(spot.body.feeWarning).toBe(takeProfitFeeWarning([1.2, 0.02], 'spot'));
    expect(spot.body.feeWarning).toContain('grid 2');
    expect(spot.body.feeWarning).toContain('0.2%');
    const fine = await check(auth, 'category=Spot&pair=ETHUSDT&botType=Multigrid&strategy=Tight%20Range%205');
    expect(fine.body.feeWarning).toBeNull();
  });
});
