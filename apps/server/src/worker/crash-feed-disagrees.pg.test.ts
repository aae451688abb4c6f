import { botFills, botIntents, bots, createTestDb, type DbHandle } from '@gridbot/db';
import type { EngineState } from '@gridbot/engine';
import { eventually, FakeBinanceServer, ManualFeed, TIMEOUT_UNKNOWN } from '@gridbot/exchange/testing';
import { money } from '@gridbot/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { binanceClientOf, supervisorOnBinance } from '../testing/binance-client';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import type { BotSupervisor } from './bot-supervisor';
import { onFaultPoint } from './fault-points';

// A futures bot on the Binance double while its feed and the exchange disagree: the feed trades below the
// engine's liquidation price, the exchange's mark price stays at 2000, far from its own liquidation. The
// worker crashes at the fault points of the bot's orders and is restarted again and again meanwhile, each
// time loading the bot with a last price below the engine's level. Only the exchange liquidates (it does so
// by margin, on its mark price): the bot must never book a liquidation the exchange did not make, and books
// the one it does make with its figures (docs/trading-rules.md §2.2, §3). PostgreSQL only, like the other
// crash tests (`npm run test:pg`).
const RESTARTS = 8;
const STEPS_PER_RUN = 15;
const MARKET_STEP_MS = 40;

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  onFaultPoint(() => {});
  await handle.close();
});

class Crash extends Error {}

describe('worker crashes while the feed and Binance disagree about a futures bot', () => {
  it('never books a liquidation the exchange did not make, and books the one it makes', async () => {
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.setPrice('ETHUSDT', 'future', '2000');
    fake.book.spot.set('USDT', { free: money(1000), locked: money(0) });
    fake.book.transfer('MAIN_UMFUTURE', 'USDT', '1000');
    const exchange = binanceClientOf(fake, { timeoutMs: 1000, recvWindowMs: 500 });
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 4)));
    const botId = await insertBot(handle.db, userId, {
      symbol: 'ETHUSDT',
      market: 'future',
      leverage: 10,
      investment: 500,
    });
    const feed = new ManualFeed({ 'future:ETHUSDT': '2000' });
    let crashes = 0;
    let seen = 0;
    let armed = false;
    // Every other fault point of the bot's orders crashes it (the next one lets it through).
    onFaultPoint((point, detail) => {
      if (!armed || detail.botId !== botId) return;
      seen += 1;
      if (seen % 2 === 0) return;
      crashes += 1;
      throw new Crash(`crash at ${point}`);
    });
    const start = async () => {
      const supervisor = supervisorOnBinance(handle.db, feed, exchange, {
        reloadDelayMs: 20,
        reconcileDelayMs: (attempts) => 10 * 2 ** Math.min(attempts, 4),
      });
      await supervisor.start();
      return supervisor;
    };
    const row = async () => (await handle.db.select().from(bots).where(eq(bots.id, botId)))[0]!;
    const state = async () => (await row()).engineState as unknown as EngineState;
    let supervisor: BotSupervisor = await start();
    try {
      feed.setPrice('ETHUSDT', 'future', '2000');
      await eventually(async () => expect((await state()).lots).toHaveLength(1), 20_000);
      const engineLiq = (await state()).account.liqPrice;
      expect(engineLiq).toBeGreaterThan(1700);
      armed = true;
      for (let run = 0; run < RESTARTS; run += 1) {
        for (let i = 0; i < STEPS_PER_RUN; i += 1) {
          // Always below the engine's level (it buys the next grids there), never near the exchange's.
          const price = engineLiq * (0.93 + 0.05 * Math.sin(run * STEPS_PER_RUN + i));
          if (i === 3)
            fake.inject('POST /fapi/v1/order', {
              kind: 'executedThenError',
              status: 503,
              body: TIMEOUT_UNKNOWN,
            });
          feed.setPrice('ETHUSDT', 'future', price.toFixed(2));
          await new Promise((resolve) => setTimeout(resolve, MARKET_STEP_MS));
        }
        await supervisor.stop();
        supervisor = await start();
      }
      armed = false;
      await eventually(async () => {
        const open = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
        expect(open.filter((i) => i.status === 'pending' || i.status === 'unknown')).toEqual([]);
      }, 20_000);
      await supervisor.runner(botId)?.checkPosition();

      // Nothing liquidated on either side: the bot trades on, its lots what the exchange holds.
      expect(crashes).toBeGreaterThan(0);
      expect(fake.book.liquidations).toEqual([]);
      expect((await row()).status).not.toBe('Stopped');
      const held = fake.book.positions.get('ETHUSDT')!.qty;
      const lots = (await state()).lots.reduce((sum, lot) => sum.plus(lot.qty), money(0));
      expect(lots.toFixed()).toBe(held.toFixed());
      const sells = await handle.db
        .select()
        .from(botFills)
        .where(and(eq(botFills.botId, botId), eq(botFills.side, 'sell')));
      expect(sells).toEqual([]);
      const recorded = await handle.db
        .select()
        .from(botIntents)
        .where(and(eq(botIntents.botId, botId), eq(botIntents.kind, 'RecordLiquidation')));
      expect(recorded).toEqual([]);

      // Now the exchange liquidates: the bot books that once, at the exchange's price.
      fake.setPrice('ETHUSDT', 'future', fake.book.liquidationPrice('ETHUSDT')!.minus(1).toFixed(2));
      expect(fake.book.liquidations).toHaveLength(1);
      await supervisor.runner(botId)?.checkPosition();
      await eventually(
        async () => expect(await row()).toMatchObject({ status: 'Stopped', stopReason: 'liquidated' }),
        20_000,
      );
      const closes = await handle.db
        .select()
        .from(botFills)
        .where(and(eq(botFills.botId, botId), eq(botFills.side, 'sell')));
      expect(closes).toHaveLength(1);
      expect(money(closes[0]!.price).toFixed(8)).toBe(fake.book.liquidations[0]!.price.toFixed(8));
      expect(money(closes[0]!.qty).toFixed()).toBe(held.toFixed());
    } finally {
      armed = false;
      await supervisor.stop();
      await fake.close();
    }
  }, 120_000);
});
