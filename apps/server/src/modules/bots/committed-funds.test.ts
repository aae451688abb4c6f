import { bots } from '@gridbot/db';
import { botMessages, heldByBotsMessage, walletMessages as m, money } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBot, insertCycle } from '../../testing/bot-fixtures';
import { call, registerMember } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { PAPER_ACCOUNT_KEYS } from '../exchange/user-exchange';
import { commitmentOf } from './committed-funds';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const member = (prefix: string) => registerMember(t, prefix);

/** Makes a stored bot hold `qty` coins bought for `quote` USDT, as its fills would have. */
async function holdLots(botId: string, qty: number, quote: number) {
  const [row] = await t.handle.db.select().from(bots).where(eq(bots.id, botId));
  const state = row!.engineState as { account: Record<string, number> };
  state.account = { ...state.account, openQty: qty, openQuote: quote, openMargin: quote, openCost: quote };
  await t.handle.db
    .update(bots)
    .set({ engineState: state, stateVersion: row!.stateVersion + 1 })
    .where(eq(bots.id, botId));
}

describe('commitmentOf', () => {
  const base = {
    id: 'b',
    strategyName: 'Tight',
    symbol: 'SUIUSDT',
    investment: '1000',
    leverage: 1,
  };
  it('keeps a spot bot its unspent investment and the coins of its lots (its buy fees come out of the coins)', () => {
    const c = commitmentOf({
      ...base,
      botType: 'multigrid',
      category: 'Spot',
      engineState: { account: { openQty: 133.6, openMargin: 400 } },
    });
    expect(c).toMatchObject({
      usdt: '600',
      asset: 'SUI',
      qty: '133.6',
      name: "SUIUSDT Spot · Multigrid 'Tight'",
    });
  });
  it('keeps a futures bot its unspent margin and the fee on its notional, and no coins', () => {
    const c = commitmentOf({
      ...base,
      botType: 'scalping',
      category: 'Future',
      leverage: 4,
      engineState: { account: { openQty: 1, openMargin: 200 } },
    });
    // 800 margin left; fee 0.05 % of 3,200 notional = 1.6
    expect(c).toMatchObject({ usdt: '801.6', asset: null, qty: '0' });
  });
  it('never reserves below zero', () => {
    const c = commitmentOf({
      ...base,
      botType: 'cycle',
      category: 'Spot',
      engineState: { account: { openQty: 2, openMargin: 1200 } },
    });
    expect(c).toMatchObject({ usdt: '0', qty: '2', name: 'SUIUSDT Spot · Cycle' });
  });
});

describe('funds committed to running bots', () => {
  it('are neither available, transferable nor given to the next bot', async () => {
    const user = await member('commit');
    await insertBot(t.handle.db, user.id, { symbol: 'BTCUSDT', investment: 6000 });
    // 6,000 kept for the bot (its buy fees come out of the coin bought): 10,000 − 6,000 = 4,000 free.
    expect((await call(t, 'GET', '/api/spotBalance', undefined, user.auth)).body).toEqual({
      spotusdtAmount: '4000',
      committedUsdt: '6000',
      venue: 'paper',
    });
    const pie = await call(t, 'GET', '/api/pichart', undefined, user.auth);
    expect(pie.body).toMatchObject({ usdt: '10000', availableBalance: '4000', botCount: 1 });
    const assets = (await call(t, 'GET', '/api/spotAssets', undefined, user.auth)).body.assets as {
      asset: string;
      free: string;
      committed: string;
    }[];
    expect(assets.find((a) => a.asset === 'USDT')).toMatchObject({ free: '4000', committed: '6000' });

    const transfer = await call(
      t,
      'POST',
      '/api/transferspottofutures',
      { from: 'Spot', to: 'Futures', coin: 'USDT', amount: 4000.5 },
      user.auth,
    );
    expect(transfer).toMatchObject({ status: 400, body: { message: m.amountExceedsTransferable } });

    const start = await call(
      t,
      'POST',
      '/api/startbotdata',
      {
        botType: 'Multigrid',
        category: 'Spot',
        selectPair: 'ETHUSDT',
        myStrategy: 'Tight Range 5',
        amount: 4000.5,
      },
      user.auth,
    );
    expect(start.status).toBe(400);
    expect(start.body.message).toContain(botMessages.insufficientBalance);
    expect(start.body.message).toContain('4000.00 USDT free');

    const cycle = await call(
      t,
      'POST',
      '/api/startcycledata',
      {
        category: 'Spot',
        pair: 'ETHUSDT',
        amount: 4000.5,
        priceReachAt: 1,
        sellPriceAt: 1_000_000,
        stopLossAt: '',
        cycleCount: 1,
      },
      user.auth,
    );
    expect(cycle.status).toBe(400);
    expect(cycle.body.message).toContain(botMessages.insufficientBalance);
  });

  it('are listed per bot and released when the bot stops', async () => {
    const user = await member('perbot');
    const botId = await insertBot(t.handle.db, user.id, { symbol: 'BTCUSDT', investment: 1000 });
    // Newest first: the bot started a minute before the cycle (two inserts can share a clock tick).
    await t.handle.db
      .update(bots)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(bots.id, botId));
    await insertCycle(t.handle.db, user.id, {
      symbol: 'ETHUSDT',
      buyPrice: 1,
      sellPrice: 2,
      cycles: 1,
      amount: 500,
    });
    const funds = (await call(t, 'GET', '/api/committedfunds', undefined, user.auth)).body;
    expect(funds).toMatchObject({ spotUsdt: '1500', futuresUsdt: '0' });
    expect((funds.bots as { name: string; usdt: string }[]).map((b) => [b.name, b.usdt])).toEqual([
      ['ETHUSDT Spot · Cycle', '500'],
      ["BTCUSDT Spot · Multigrid 'Simple'", '1000'],
    ]);
    await t.handle.db.update(bots).set({ status: 'Stopped' }).where(eq(bots.id, botId));
    expect((await call(t, 'GET', '/api/spotBalance', undefined, user.auth)).body).toEqual({
      spotusdtAmount: '9500',
      committedUsdt: '500',
      venue: 'paper',
    });
  });

  it("refuse a swap of a bot's coins, naming the bot, and swap the free part", async () => {
    const user = await member('swapheld');
    const exchange = t.deps.exchanges.forUser(user.id, PAPER_ACCOUNT_KEYS);
    await exchange.placeOrder({
      market: 'spot',
      symbol: 'SUIUSDT',
      side: 'buy',
      type: 'market',
      clientOrderId: 'seed-sui',
      // 300 SUI less the 0.3 SUI fee taken from them: 299.7, whole steps of 0.1, so swaps leave no dust.
      quantity: '300',
    });
    const held = (await exchange.balances('spot')).find((b) => b.asset === 'SUI')!.free;
    const botQty = money(held).times(0.8).toDecimalPlaces(1).toNumber();
    const botId = await insertBot(t.handle.db, user.id, { symbol: 'SUIUSDT', investment: 1000 });
    await holdLots(botId, botQty, 800);
    const free = money(held).minus(botQty).toFixed();

    const all = await call(t, 'POST', '/api/swaptousdt', { asset: 'SUI', amount: held }, user.auth);
    expect(all).toMatchObject({
      status: 400,
      body: { message: heldByBotsMessage('SUI', ["SUIUSDT Spot · Multigrid 'Simple'"], free) },
    });
    const assets = (await call(t, 'GET', '/api/spotAssets', undefined, user.auth)).body.assets as {
      asset: string;
      balance: string;
      free: string;
      committed: string;
    }[];
    expect(assets.find((a) => a.asset === 'SUI')).toMatchObject({
      balance: held,
      free,
      committed: String(botQty),
    });

    const part = await call(t, 'POST', '/api/swaptousdt', { asset: 'SUI', amount: free }, user.auth);
    expect(part).toMatchObject({ status: 200, body: { message: m.swapSuccessful } });
    const left = (await exchange.balances('spot')).find((b) => b.asset === 'SUI')!.free;
    expect(left).toBe(String(botQty));
  });
});
