/**
 * A range grid's limit order refused because it would trade at once as a taker (a post-only refusal, spot
 * -2010 "Order would immediately match and take.", [spot errors.md]; futures GTX -5022): the grid's orders
 * are LIMIT GTC (docs/trading-rules.md §2.6 "Live"), so the level is placed again at once under the next
 * client order id as GTC, and the bot keeps running. The refusal is scripted on the paper exchange, as Binance
 * answers it: nothing placed, nothing recorded under the refused id.
 *
 * Figures: ETHUSDT spot, 1000 USDT on 1900–2100 in 4 levels, started at 2000 (q = 0.1273, see
 * range-binance-double.test.ts); the first sell, at 2050, is refused once.
 */
import { botIntents, bots, createTestDb, type DbHandle } from '@gridbot/db';
import { type Exchange, exchangeErrors } from '@gridbot/exchange';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOrderIdOf } from '../modules/bots';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { ethGridOnPaper } from '../testing/range-on-paper';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

describe('a range grid order refused because it would take', () => {
  it('is placed again at its level as GTC under the next client order id, and the bot runs on', async () => {
    const grid = await ethGridOnPaper(handle.db, { keySeed: 21 });
    const { paper, userId, botId } = grid;
    const sent: { id: string; postOnly: boolean | undefined }[] = [];
    let refused = false;
    const gateway = paperGateway(paper);
    const refusing = (ex: Exchange): Exchange =>
      new Proxy(ex, {
        get(target, key, receiver) {
          if (key !== 'placeOrder') return Reflect.get(target, key, receiver);
          return async (input: Parameters<Exchange['placeOrder']>[0]) => {
            sent.push({ id: input.clientOrderId, postOnly: input.postOnly });
            if (input.type === 'limit' && input.price === '2050' && !refused) {
              refused = true;
              throw exchangeErrors.wouldTake('spot');
            }
            return target.placeOrder(input);
          };
        },
      });
    const supervisor = grid.supervisor({
      exchanges: { ...gateway, forUser: (id, keys) => refusing(gateway.forUser(id, keys)) },
    });
    await supervisor.start();
    try {
      grid.move('2000');
      await supervisor.rangeRunner(botId)?.serial(async () => {});
      await supervisor.rangeRunner(botId)?.serial(async () => {});
      const state = supervisor.rangeRunner(botId)!.currentState;
      // Every level holds its order; the one at 2050 under a later seq than its refused intent.
      expect(state.orders.map((o) => [o.level, o.side, o.price, o.qty])).toEqual([
        [0, 'buy', 1900, 0.1273],
        [1, 'buy', 1950, 0.1273],
        [3, 'sell', 2050, 0.1273],
        [4, 'sell', 2100, 0.127],
      ]);
      const at2050 = state.orders.find((o) => o.level === 3)!;
      const intents = await handle.db.select().from(botIntents).where(eq(botIntents.botId, botId));
      const at2050Intents = intents.filter((r) => r.kind === 'PlaceLimit' && r.payload.price === '2050');
      expect(at2050Intents.map((r) => [r.seq, r.status, r.lastError])).toEqual([
        [at2050Intents[0]!.seq, 'failed', 'Order would immediately match and take.'],
        [at2050.seq, 'pending', null],
      ]);
      expect(at2050.seq).toBeGreaterThan(at2050Intents[0]!.seq);
      expect(sent.map((r) => r.id)).toContain(clientOrderIdOf(botId, at2050Intents[0]!.seq));
      // Each grid order went out GTC, not post-only.
      expect(sent.filter((s) => s.id !== clientOrderIdOf(botId, 1)).every((s) => s.postOnly === false)).toBe(
        true,
      );
      const open = await paper.forUser(userId).openOrders('spot', 'ETHUSDT');
      expect(open.map((o) => o.clientOrderId).sort()).toEqual(
        state.orders.map((o) => clientOrderIdOf(botId, o.seq)).sort(),
      );
      const [row] = await handle.db.select().from(bots).where(eq(bots.id, botId));
      expect(row!.status).not.toBe('Stopped');
      expect(supervisor.rangeRunner(botId)!.finished).toBe(false);
    } finally {
      await supervisor.stop();
      await paper.stop();
    }
  }, 60_000);
});
