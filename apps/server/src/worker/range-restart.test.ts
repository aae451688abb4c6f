/**
 * A range grid across a restart (docs/trading-rules.md §3, §2.6): the runtime stops while its orders rest, one
 * of them fills while no runtime runs, and the next runtime books that fill once, answers it, and holds exactly
 * the orders the exchange holds open, one per level; a second restart books nothing more.
 */
import { botFills, createTestDb, type DbHandle } from '@gridbot/db';
import { PaperExchange } from '@gridbot/exchange';
import { ManualFeed } from '@gridbot/exchange/testing';
import { rangeStrategySchema } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertUserWithKeys } from '../testing/bot-fixtures';
import { insertRangeBot } from '../testing/range-fixtures';
import { BotSupervisor } from './bot-supervisor';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

describe('a range grid across a restart', () => {
  it('books a fill made while no runtime ran once, and holds the orders the exchange holds', async () => {
    const feed = new ManualFeed({ 'spot:ETHUSDT': '2000' });
    const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
    await paper.start();
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 6)));
    const params = rangeStrategySchema.parse({ type: 'range', lower: 1900, upper: 2100, grids: 4 });
    const { botId } = await insertRangeBot(handle.db, userId, {
      symbol: 'ETHUSDT',
      market: 'spot',
      params,
      investment: 1000,
    });
    const runtime = () =>
      new BotSupervisor({
        db: handle.db,
        feed,
        exchanges: paperGateway(paper),
        loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
        now: () => Date.now(),
        log: () => {},
      });
    const first = runtime();
    await first.start();
    feed.setPrice('ETHUSDT', 'spot', '2000');
    await first.rangeRunner(botId)?.serial(async () => {});
    expect(first.rangeRunner(botId)?.currentState.orders.map((o) => o.level)).toEqual([0, 1, 3, 4]);
    await first.stop();

    // No runtime: the buy at 1950 fills on the exchange alone.
    feed.setPrice('ETHUSDT', 'spot', '1940');
    const ex = paper.forUser(userId);
    for (let k = 0; k < 100 && (await ex.openOrders('spot', 'ETHUSDT')).length === 4; k++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await ex.openOrders('spot', 'ETHUSDT')).map((o) => o.price)).toEqual(['1900', '2050', '2100']);

    for (let restart = 0; restart < 2; restart++) {
      const next = runtime();
      await next.start();
      await next.rangeRunner(botId)?.serial(async () => {});
      feed.setPrice('ETHUSDT', 'spot', '1945');
      await next.rangeRunner(botId)?.serial(async () => {});
      const state = next.rangeRunner(botId)!.currentState;
      // The buy at 1950 booked once, answered by a sell at 2000: levels 0, 2, 3, 4, none twice.
      expect(state.orders.map((o) => o.level)).toEqual([0, 2, 3, 4]);
      const open = await ex.openOrders('spot', 'ETHUSDT');
      expect(open.map((o) => o.price).sort()).toEqual(['1900', '2000', '2050', '2100']);
      expect(open.map((o) => [o.side, o.quantity]).sort()).toEqual(
        state.orders.map((o) => [o.side, String(o.qty)]).sort(),
      );
      const fills = await handle.db.select().from(botFills).where(eq(botFills.botId, botId));
      // The start buy and the buy at 1950, each once.
      expect(fills.map((f) => [f.side, f.grid, Number(f.price)]).sort()).toEqual([
        ['buy', 0, 2000],
        ['buy', 1, 1950],
      ]);
      await next.stop();
    }
    await paper.stop();
  }, 120_000);
});
