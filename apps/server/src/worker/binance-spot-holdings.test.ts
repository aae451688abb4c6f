import { botCommands, botFills, bots, createTestDb, type DbHandle, platformLedger } from '@gridbot/db';
import type { EngineState } from '@gridbot/engine';
import { eventually, FakeBinanceServer, ManualFeed } from '@gridbot/exchange/testing';
import { isMissingCoinsHalt, missingCoinsUnsettled, money } from '@gridbot/shared';
import { eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { clientOrderIdOf } from '../modules/bots';
import { toBotSummary } from '../modules/bots/bot-summary';
import { clearHalt, queueCommand } from '../modules/bots/bots.repo';
import { ensureWallet, findWallet } from '../modules/credit/ledger.repo';
import { binanceClientOf, supervisorOnBinance } from '../testing/binance-client';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { runnerSettled } from '../testing/waits';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

async function botRow(botId: string) {
  const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
  return row!;
}

describe('a spot remainder below the minimum notional', () => {
  it('is left as recorded dust by a stop and sell, which stops the bot instead of halting it', async () => {
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const exchange = binanceClientOf(fake);
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 4)));
    // Grid 1: 40 % of 13 = 5.2 USDT at 2000 = 0.0026 ETH, just above ETHUSDT's minimum notional of 5.
    const botId = await insertBot(handle.db, userId, { investment: 13 });
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    const halts: string[] = [];
    const supervisor = supervisorOnBinance(handle.db, feed, exchange, {
      log: (message, extra) => {
        if (message === 'bot halted') halts.push(String(extra?.reason));
      },
    });
    try {
      await supervisor.start();
      feed.setPrice('ETHUSDT', 'spot', '2000');
      await eventually(async () => expect((await botRow(botId)).fillCount).toBe(1), 20_000);
      // The fee came out of the ETH bought: the lot holds 0.0026 − 0.0000026 = 0.0025974.
      expect(fake.book.spot.get('ETH')?.free.toFixed()).toBe('0.0025974');

      // At 1900 the 0.0025 ETH the step allows to sell are worth 4.75 USDT: Binance refuses them (NOTIONAL).
      fake.setPrice('ETHUSDT', 'spot', '1900');
      feed.setPrice('ETHUSDT', 'spot', '1900');
      await handle.db.insert(botCommands).values({ botId, type: 'stop_sell', payload: {} });
      await supervisor.notify(botId);
      await eventually(
        async () =>
          expect(await botRow(botId)).toMatchObject({ status: 'Stopped', stopReason: 'manual_sell' }),
        20_000,
      );
      const row = await botRow(botId);
      expect(row.haltReason).toBeNull();
      expect(halts).toEqual([]);
      const [command] = await handle.db.select().from(botCommands).where(eq(botCommands.botId, botId));
      expect(command?.status).toBe('done');
      // Nothing was sold; the account holds no ETH of the bot beyond its recorded dust.
      const fills = await handle.db.select().from(botFills).where(eq(botFills.botId, botId));
      expect(fills.map((f) => f.side)).toEqual(['buy']);
      const state = row.engineState as unknown as EngineState;
      expect(state.lots).toEqual([]);
      expect(state.account.dustQty).toBe(0.0025974);
      expect(fake.book.spot.get('ETH')?.free.toFixed()).toBe('0.0025974');
      // One refused order, never retried.
      const sells = fake.requests.filter((r) => r.path === '/api/v3/order' && r.params.side === 'SELL');
      expect(sells.length).toBeLessThanOrEqual(1);
      // The bot page shows it: 0.0025974 ETH, worth 4.93506 USDT at 1900.
      const summary = toBotSummary(row as never, 1900, Date.now(), [], 0);
      expect(summary.dust).toEqual({ qty: 0.0025974, asset: 'ETH', value: 4.93506 });
      // Booked at the price it was left at: 4.93506 − 5.2 = −0.26494. The buy fee (0.0000026 ETH) is already
      // in it, as the ETH the lot lacks; it is not taken a second time.
      expect(state.account.bookedProfit).toBeCloseTo(-0.26494, 8);
      expect(Number(row.lossBook)).toBeCloseTo(-0.26494, 8);
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  }, 60_000);
});

describe('coins sold outside the platform', () => {
  it('pause the bot at its next check with the reason shown', async () => {
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const exchange = binanceClientOf(fake);
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 7)));
    const botId = await insertBot(handle.db, userId);
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    const supervisor = supervisorOnBinance(handle.db, feed, exchange);
    try {
      await supervisor.start();
      feed.setPrice('ETHUSDT', 'spot', '2000');
      await eventually(async () => expect((await botRow(botId)).fillCount).toBe(1), 20_000);
      // The check finds the 0.1998 ETH of grid 1 (0.2 less the fee in ETH): nothing to say.
      await supervisor.runner(botId)?.checkHoldings();
      expect((await botRow(botId)).haltReason).toBeNull();
      // The user sells 0.15 ETH on Binance itself.
      fake.book.spot.set('ETH', { free: money('0.0498'), locked: money(0) });
      await supervisor.runner(botId)?.checkHoldings();
      expect(await botRow(botId)).toMatchObject({
        status: 'Pause',
        haltReason:
          "Your Binance account holds 0.0498 ETH, less than the 0.1998 ETH of this bot's open grids: they were sold outside the platform.",
      });
      // Paused: no sale of coins the account no longer holds goes out.
      feed.setPrice('ETHUSDT', 'spot', '2030');
      await runnerSettled(supervisor, botId);
      expect(fake.requests.some((r) => r.path === '/api/v3/order' && r.params.side === 'SELL')).toBe(false);
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  }, 60_000);
});

describe('resuming a bot whose coins were sold outside the platform', () => {
  async function pausedBot(seed: number) {
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const exchange = binanceClientOf(fake);
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, seed)));
    const botId = await insertBot(handle.db, userId);
    // Bots of the tests before this one are still Live in this file's database; here every user's exchange is
    // this one double, which no two users share in production, so they are stopped first.
    await handle.db.update(bots).set({ status: 'Stopped' }).where(ne(bots.id, botId));
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    const supervisor = supervisorOnBinance(handle.db, feed, exchange);
    await supervisor.start();
    feed.setPrice('ETHUSDT', 'spot', '2000');
    await eventually(async () => expect((await botRow(botId)).fillCount).toBe(1), 20_000);
    // The user sells 0.15 ETH of the 0.1998 on Binance itself; the next check pauses the bot.
    fake.book.spot.set('ETH', { free: money('0.0498'), locked: money(0) });
    await supervisor.runner(botId)?.checkHoldings();
    expect((await botRow(botId)).status).toBe('Pause');
    // The price moved to 1900 meanwhile.
    fake.setPrice('ETHUSDT', 'spot', '1900');
    feed.setPrice('ETHUSDT', 'spot', '1900');
    /** What the resume route does once the user chose: the choice is queued, the halt cleared, the bot launched. */
    const resume = async (choice: 'rebuy' | 'drop') => {
      await queueCommand(handle.db, botId, 'missing_lots', { choice });
      expect(await clearHalt(handle.db, botId, 'Live')).toBe(true);
      await supervisor.add(botId);
      await eventually(async () => {
        const [command] = await handle.db
          .select()
          .from(botCommands)
          .where(eq(botCommands.botId, botId))
          .orderBy(botCommands.id);
        expect(command?.status).toBe('done');
      }, 20_000);
    };
    const lotsQty = async () =>
      ((await botRow(botId)).engineState as unknown as EngineState).lots
        .reduce((sum, lot) => sum.plus(lot.qty), money(0))
        .toFixed();
    const close = async () => {
      await supervisor.stop();
      await fake.close();
    };
    return { fake, feed, userId, botId, resume, lotsQty, close, supervisor, exchange };
  }

  it('re-buys the missing quantity with a market order booked as a fill: the lots equal the account', async () => {
    const bot = await pausedBot(11);
    try {
      await bot.resume('rebuy');
      await eventually(async () => expect((await botRow(bot.botId)).fillCount).toBe(2), 20_000);
      // 0.15 ETH bought at 1900 under the bot's client order id (its intent written first); Binance takes 0.00015 ETH as fee.
      const buys = bot.fake.requests.filter((r) => r.path === '/api/v3/order' && r.params.side === 'BUY');
      expect(buys.at(-1)?.params).toMatchObject({ type: 'MARKET', quantity: '0.15' });
      expect(buys.at(-1)?.params.newClientOrderId).toBe(clientOrderIdOf(bot.botId, 2));
      const fills = await handle.db.select().from(botFills).where(eq(botFills.botId, bot.botId));
      expect(fills.map((f) => [f.side, Number(f.qty)])).toEqual([
        ['buy', 0.2],
        ['buy', 0.15],
      ]);
      const held = bot.fake.book.spot.get('ETH')?.free.toFixed();
      expect(held).toBe('0.19965');
      expect(await bot.lotsQty()).toBe(held);
      const row = await botRow(bot.botId);
      expect(row).toMatchObject({ status: 'Live', haltReason: null });
      // The account holds the lots again: the next check finds nothing to say.
      await bot.supervisor.runner(bot.botId)?.checkHoldings();
      expect((await botRow(bot.botId)).haltReason).toBeNull();
    } finally {
      await bot.close();
    }
  }, 60_000);

  it('pauses again, still asking, when Binance does not answer while the choice is carried out', async () => {
    const bot = await pausedBot(13);
    try {
      bot.exchange.balances = async () => {
        throw new Error('socket hang up');
      };
      await queueCommand(handle.db, bot.botId, 'missing_lots', { choice: 'drop' });
      expect(await clearHalt(handle.db, bot.botId, 'Live')).toBe(true);
      await bot.supervisor.add(bot.botId);
      await eventually(
        async () =>
          expect(await botRow(bot.botId)).toMatchObject({
            status: 'Pause',
            haltReason: missingCoinsUnsettled,
          }),
        20_000,
      );
      expect(isMissingCoinsHalt(missingCoinsUnsettled)).toBe(true);
      expect(await bot.lotsQty()).toBe('0.1998');
      expect(bot.fake.requests.some((r) => r.path === '/api/v3/order' && r.params.side === 'SELL')).toBe(
        false,
      );
    } finally {
      await bot.close();
    }
  }, 60_000);

  it('pauses again, asking again, when Binance refuses the re-buy; the choice fails with the reason', async () => {
    const bot = await pausedBot(14);
    try {
      // The USDT went elsewhere after the route's check: Binance refuses the buy.
      bot.fake.book.spot.set('USDT', { free: money('1'), locked: money(0) });
      const commandId = await queueCommand(handle.db, bot.botId, 'missing_lots', { choice: 'rebuy' });
      expect(await clearHalt(handle.db, bot.botId, 'Live')).toBe(true);
      await bot.supervisor.add(bot.botId);
      await eventually(async () => {
        const row = await botRow(bot.botId);
        expect(row.status).toBe('Pause');
        expect(row.haltReason).toMatch(/^Buying the missing coins again failed: .*insufficient balance/i);
      }, 20_000);
      const row = await botRow(bot.botId);
      expect(isMissingCoinsHalt(row.haltReason)).toBe(true);
      const [command] = await handle.db.select().from(botCommands).where(eq(botCommands.id, commandId));
      expect(command).toMatchObject({ status: 'failed', error: row.haltReason });
      // Nothing was bought: the lots still count the coins sold, and no sale of them went out.
      expect(await bot.lotsQty()).toBe('0.1998');
      expect(bot.fake.requests.some((r) => r.path === '/api/v3/order' && r.params.side === 'SELL')).toBe(
        false,
      );
    } finally {
      await bot.close();
    }
  }, 60_000);

  it('drops the missing lots, booked at the price, and trades on with what the account holds', async () => {
    const bot = await pausedBot(12);
    try {
      await bot.resume('drop');
      // The bot carries the choice out as it is launched, before it trades.
      await eventually(async () => expect(await bot.lotsQty()).toBe('0.0498'), 20_000);
      const row = await botRow(bot.botId);
      const state = row.engineState as unknown as EngineState;
      // 0.15 of the lot's 0.1998 ETH (bought for 400 USDT): cost 0.15 × 400 / 0.1998 = 300.3003003, worth
      // 0.15 × 1900 = 285 → −15.3003003 booked, and the 0.15 ETH recorded on the bot.
      expect(state.account.missingQty).toBe(0.15);
      expect(state.account.bookedProfit).toBeCloseTo(-15.3003003, 6);
      expect(Number(row.lossBook)).toBeCloseTo(-15.3003003, 6);
      expect(row).toMatchObject({ status: 'Live', haltReason: null });
      // It trades on: a fall buys the next grid.
      bot.fake.setPrice('ETHUSDT', 'spot', '1500');
      bot.feed.setPrice('ETHUSDT', 'spot', '1500');
      await eventually(async () => expect((await botRow(bot.botId)).fillCount).toBe(2), 20_000);
      await bot.supervisor.runner(bot.botId)?.checkHoldings();
      expect((await botRow(bot.botId)).haltReason).toBeNull();
    } finally {
      await bot.close();
    }
  }, 60_000);

  it('counts the profit a drop books against the profit limit, as the profit of a sell counts', async () => {
    const bot = await pausedBot(13);
    try {
      // A subscription left 100 USDT of profit limit; the price rose to 2100 since the pause.
      await ensureWallet(handle.db, bot.userId, '100');
      bot.fake.setPrice('ETHUSDT', 'spot', '2100');
      bot.feed.setPrice('ETHUSDT', 'spot', '2100');
      await bot.resume('drop');
      await eventually(async () => expect(await bot.lotsQty()).toBe('0.0498'), 20_000);
      // 0.15 ETH that cost 300.3003003 USDT, worth 0.15 × 2100 = 315: 14.6996997 of profit booked.
      const row = await botRow(bot.botId);
      expect(Number(row.profitBook)).toBeCloseTo(14.6996997, 6);
      expect(Number((await findWallet(handle.db, bot.userId))?.availableCredit)).toBeCloseTo(85.3003003, 6);
      const ledger = await handle.db
        .select()
        .from(platformLedger)
        .where(eq(platformLedger.userId, bot.userId));
      expect(
        ledger.filter((l) => l.reason === 'profit_booked').map((l) => [Number(l.delta).toFixed(7), l.refId]),
      ).toEqual([['-14.6996997', bot.botId]]);
    } finally {
      await bot.close();
    }
  }, 60_000);
});
