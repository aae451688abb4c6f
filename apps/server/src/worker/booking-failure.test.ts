import { botFills, botIntents, createTestDb, type DbHandle } from '@gridbot/db';
import { eventually, FakeBinanceServer, ManualFeed } from '@gridbot/exchange/testing';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { binanceClientOf, supervisorOnBinance } from '../testing/binance-client';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { runnerSettled } from '../testing/waits';
import { onFaultPoint } from './fault-points';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  onFaultPoint(() => {});
  await handle.close();
});

describe('a fill the exchange executed but the database did not take', () => {
  it('is booked once the bot is loaded again, never lost from the order book', async () => {
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const exchange = binanceClientOf(fake);
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 5)));
    const botId = await insertBot(handle.db, userId);
    // The write of the first fill fails (the database went away) after Binance filled the order.
    let failed = false;
    onFaultPoint((point, detail) => {
      if (point !== 'order-filled' || detail.botId !== botId || failed) return;
      failed = true;
      throw new Error('Connection terminated unexpectedly');
    });
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    const supervisor = supervisorOnBinance(handle.db, feed, exchange, {
      reloadDelayMs: 20,
    });
    const fills = () =>
      handle.db.select().from(botFills).where(eq(botFills.botId, botId)).orderBy(asc(botFills.seq));
    try {
      await supervisor.start();
      feed.setPrice('ETHUSDT', 'spot', '2000');
      await eventually(async () => expect(failed).toBe(true), 20_000);
      // Loaded again, the bot books the buy the exchange filled.
      await eventually(
        async () => expect((await fills()).map((f) => [f.seq, f.side])).toEqual([[1, 'buy']]),
        20_000,
      );
      // Its take-profit: the bot sells what it bought, once the buy is booked.
      for (const price of ['2000.5', '2020', '2020.5', '2021']) {
        fake.setPrice('ETHUSDT', 'spot', price);
        feed.setPrice('ETHUSDT', 'spot', price);
        await runnerSettled(supervisor, botId);
      }
      // The first buy (seq 1) is in the order book, then its sale (an emptied stack then buys grid 1 again).
      await eventually(
        async () =>
          expect((await fills()).slice(0, 2).map((f) => [f.seq, f.side])).toEqual([
            [1, 'buy'],
            [2, 'sell'],
          ]),
        20_000,
      );
      for (const fill of await fills()) expect(fake.book.executedWithId(fill.clientOrderId)).toHaveLength(1);
      await eventually(async () => {
        const intents = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
        expect(intents.every((i) => i.status === 'filled')).toBe(true);
      }, 20_000);
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  }, 60_000);
});
