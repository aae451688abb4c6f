import { describe, expect, it } from 'vitest';
import { insertCycle, insertUserWithKeys } from '../testing/bot-fixtures';
import { crashTestContext } from '../testing/crash-harness';
import { freePort } from '../testing/free-port';

// The server is killed with SIGKILL at random moments while a cycle trades; it buys once per
// cycle, and its books equal its fills after the restarts.
// PostgreSQL only (`npm run test:pg`): a crash of the embedded PGlite is a different question (its own
// durability). The bot and the cycle are two files so that they run side by side.
const t = crashTestContext();

describe('SIGKILL while a cycle trades', () => {
  it('a cycle killed while holding buys once, and keeps its books after restarts', async () => {
    const port = await freePort();
    // The replay restarts at the same candle on every start: read where it begins.
    const probe = await t.harness.startServer(port);
    const tickers = (await (await fetch(`http://127.0.0.1:${port}/api/tickers`)).json()) as {
      tickers: { symbol: string; price: string }[];
    };
    await t.harness.kill(probe, 'SIGTERM');
    const p0 = Number(tickers.tickers.find((ticker) => ticker.symbol === 'SOLUSDT')?.price);
    expect(p0).toBeGreaterThan(0);

    const userId = await insertUserWithKeys(t.handle.db, t.secrets);
    // Buys at once (the price is below the buy price), then sells and buys again as the replay moves.
    const cycleId = await insertCycle(t.handle.db, userId, {
      symbol: 'SOLUSDT',
      buyPrice: p0 * 1.001,
      sellPrice: p0 * 1.003,
      cycles: 1000,
      amount: 200,
    });
    await t.harness.killRepeatedly(port, 8);
    const fills = await t.harness.expectConsistent(userId, cycleId, 'SOL');
    // A cycle alternates: buy, sell, buy, … — a doubled buy would break the pattern.
    fills
      .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))
      .forEach((f, i) => {
        expect(f.side).toBe(i % 2 === 0 ? 'buy' : 'sell');
      });
  }, 600_000);
});
