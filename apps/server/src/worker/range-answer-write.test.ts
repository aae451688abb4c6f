/**
 * A range grid's answer to a fill (docs/trading-rules.md §2.6 "Fills", §3): the fill, the state that books it
 * and the intent of the answer one level away are written in one transaction, before the answer is sent. A
 * runtime that dies just before that write (the exchange filled the order, nothing of it is written) or just
 * after it (the answer written, not sent) is reloaded, books the fill once and places the answer once.
 *
 * Figures as range-restart.test.ts: ETHUSDT spot, 1000 USDT on 1900–2100 in 4 levels of 50, started at 2000:
 * buys at 1900 and 1950, sells at 2050 and 2100; a tick at 1940 fills the buy at 1950, answered by a sell at
 * 2000.
 */
import { botIntents, createTestDb, type DbHandle } from '@gridbot/db';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DbWriteKind, noMetrics } from '../ops/metrics';
import { settledRange } from '../testing/range-fixtures';
import { ethGridOnPaper } from '../testing/range-on-paper';
import { type FaultPoint, onFaultPoint } from './fault-points';

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());
afterEach(() => onFaultPoint(() => undefined));

/** A grid laid out at 2000 on the paper exchange, under a supervisor that counts its grouped writes by kind. */
async function gridAt2000(seed: number) {
  const grid = await ethGridOnPaper(handle.db, { keySeed: seed });
  const { botId, move } = grid;
  const writes = new Map<DbWriteKind, number>();
  const supervisor = grid.supervisor({
    reloadDelayMs: 10,
    metrics: { ...noMetrics, dbWrite: (kind) => writes.set(kind, (writes.get(kind) ?? 0) + 1) },
  });
  await supervisor.start();
  move('2000');
  await settledRange(supervisor, botId);
  expect(supervisor.rangeRunner(botId)?.currentState.orders.map((o) => o.level)).toEqual([0, 1, 3, 4]);
  const fills = async () => (await grid.fillRows()).map((f) => [f.side, f.grid, Number(f.price)]).sort();
  const stop = async () => {
    await supervisor.stop();
    await grid.paper.stop();
  };
  return { move, supervisor, botId, writes, fills, openPrices: grid.openPrices, stop };
}

/** Until the grid holds `levels` and the paper book the orders at `prices`. */
async function settledTo(
  grid: Awaited<ReturnType<typeof gridAt2000>>,
  levels: number[],
  prices: string[],
): Promise<void> {
  for (let k = 0; k < 300; k++) {
    await settledRange(grid.supervisor, grid.botId);
    const held = grid.supervisor.rangeRunner(grid.botId)?.currentState.orders.map((o) => o.level);
    if (JSON.stringify(held) === JSON.stringify(levels) && (await grid.openPrices()).join() === prices.join())
      return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the grid did not settle');
}

describe("a range grid's answer to a fill", () => {
  it('is written with the fill it answers, in one transaction, before it is sent', async () => {
    const grid = await gridAt2000(11);
    try {
      grid.writes.clear();
      grid.move('1940');
      await settledTo(grid, [0, 2, 3, 4], ['1900', '2000', '2050', '2100']);
      // One grouped write: the fills' statement, carrying the answer's intent; no write of intents alone.
      expect(grid.writes.get('fills')).toBe(1);
      expect(grid.writes.get('intents')).toBeUndefined();
      expect(await grid.fills()).toEqual([
        ['buy', 0, 2000],
        ['buy', 1, 1950],
      ]);
      const intents = await handle.db.select().from(botIntents).where(eq(botIntents.botId, grid.botId));
      const answer = intents.find((i) => i.kind === 'PlaceLimit' && Number(i.payload.price) === 2000);
      expect(answer?.payload).toMatchObject({ side: 'sell', level: 2 });
    } finally {
      await grid.stop();
    }
  }, 60_000);

  const deaths: FaultPoint[] = ['order-filled', 'intent-written'];
  for (const [n, point] of deaths.entries()) {
    it(`books the fill once and places the answer once when the runtime dies at ${point}`, async () => {
      const grid = await gridAt2000(12 + n);
      try {
        // The runner dies at that point of its first write after the fill: it is reloaded from the database.
        let died = false;
        onFaultPoint((at, detail) => {
          if (at !== point || died || detail.botId !== grid.botId) return;
          died = true;
          throw new Error(`killed at ${point}`);
        });
        grid.move('1940');
        for (let k = 0; k < 300 && !died; k++) await new Promise((resolve) => setTimeout(resolve, 10));
        expect(died).toBe(true);
        // The reloaded runner reconciles by client order id; a tick inside the band lets it go on.
        await new Promise((resolve) => setTimeout(resolve, 200));
        grid.move('1945');
        await settledTo(grid, [0, 2, 3, 4], ['1900', '2000', '2050', '2100']);
        expect(await grid.fills()).toEqual([
          ['buy', 0, 2000],
          ['buy', 1, 1950],
        ]);
      } finally {
        await grid.stop();
      }
    }, 60_000);
  }
});
