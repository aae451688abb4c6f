/**
 * On Binance a market order fills where the market is, not at the level a walked line crossed: a bot whose feed
 * rose past its take-profit while the exchange still trades lower must not answer its own sale with a buy and
 * that buy with another sale at the exchange's one price, each losing both fees (docs/trading-rules.md §2.5).
 */
import { botFills, createTestDb, type DbHandle } from '@gridbot/db';
import type { GridParams } from '@gridbot/engine';
import { eventually, FakeBinanceServer, ManualFeed } from '@gridbot/exchange/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
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

/** One grid, take-profit at +0.1 %: a line from 2000 to 2010 crosses it ten times over. */
const oneGrid: GridParams = {
  type: 'multigrid',
  name: 'One grid',
  grids: 1,
  alloc: [1],
  buyPct: [0],
  buyUpPct: [0],
  tpPct: [0.1],
  tpDownPct: [0],
};

describe('a Binance bot whose feed runs ahead of the exchange', () => {
  it('sells once on the tick that crosses its take-profit, at the exchange price, and buys no more on that tick', async () => {
    const fake = await FakeBinanceServer.start({ apiKey: 'k', secret: 's' });
    fake.setPrice('ETHUSDT', 'spot', '2000');
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 6)));
    const botId = await insertBot(handle.db, userId, { investment: 100, params: oneGrid });
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    const supervisor = supervisorOnBinance(handle.db, feed, binanceClientOf(fake));
    const fills = async () =>
      (await handle.db.select().from(botFills).where(eq(botFills.botId, botId))).map((f) => f.side);
    try {
      await supervisor.start();
      feed.setPrice('ETHUSDT', 'spot', '2000');
      await eventually(async () => expect(await fills()).toEqual(['buy']), 20_000);
      // The feed jumps 0.5 % while Binance still trades at 2000.
      feed.setPrice('ETHUSDT', 'spot', '2010');
      await eventually(async () => expect((await fills()).length).toBeGreaterThan(1), 20_000);
      await runnerSettled(supervisor, botId);
      // One take-profit sale, then at most the grid-1 buy that follows it: never a chain of round trips.
      expect((await fills()).length).toBeLessThanOrEqual(3);
      expect(fake.book.orders.length).toBeLessThanOrEqual(3);
    } finally {
      await supervisor.stop();
      await fake.close();
    }
  }, 60_000);
});
