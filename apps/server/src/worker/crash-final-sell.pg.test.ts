import { botCommands, botFills, botIntents, bots } from '@gridbot/db';
import type { GridParams } from '@gridbot/engine';
import { getMarketRules } from '@gridbot/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertBot, insertCycle, insertSession, insertUserWithKeys } from '../testing/bot-fixtures';
import { crashServerMain, crashTestContext } from '../testing/crash-harness';
import { freePort } from '../testing/free-port';
import type { FaultPoint } from './fault-points';

// docs/trading-rules.md §3 "A stopping bot is not done until its last order is": the server is killed with SIGKILL at the
// moments around a bot's final sell (stop and sell, stoploss, a cycle's last sell): before its intent is
// written, after, after the exchange filled it, after the bot booked it. After the restart every sale is on
// the bot's books exactly once (or was never sent and is sent then), and the venue's ledger equals the books.
// PostgreSQL only (`npm run test:pg`), like the other crash tests.
// Every kind of final sell killed at every point once: kill i aims kind i mod 3 at point i mod 4.
const KILLS = 12;
const POINTS: FaultPoint[] = ['intent-write', 'intent-written', 'order-filled', 'fill-booked'];
const KINDS = ['stop_sell', 'stoploss', 'cycle_end'] as const;
type Kind = (typeof KINDS)[number];
const t = crashTestContext();

/** Buys grid 1 and nothing more, and never takes profit: the bot's only sell is its final one. */
const holdOnly: GridParams = {
  type: 'multigrid',
  name: 'Hold',
  grids: 3,
  alloc: [0.4, 0.3, 0.3],
  buyPct: [50, 50],
  buyUpPct: [0, 0],
  tpPct: [500, 500, 500],
  tpDownPct: [0, 0, 0],
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  return false;
}

describe('SIGKILL around a final sell', () => {
  it(`books every final sale exactly once over ${KILLS} aimed kills`, async () => {
    const { db } = t.handle;
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // The replay restarts at the same candle on every start: read where SOL begins (the cycles' prices).
    const probe = await t.harness.startServer(port);
    const tickers = (await (await fetch(`${url}/api/tickers`)).json()) as {
      tickers: { symbol: string; price: string }[];
    };
    await t.harness.kill(probe, 'SIGTERM');
    const sol0 = Number(tickers.tickers.find((ticker) => ticker.symbol === 'SOLUSDT')?.price);
    expect(sol0).toBeGreaterThan(0);

    const post = (token: string, path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));
    const fillsOf = (botId: string) => db.select().from(botFills).where(eq(botFills.botId, botId));

    /**
     * Starts the final sell of a bot that holds its grid-1 lot; false when the stoploss could not be set. The
     * replay moves an hour of candles in a fraction of a second, so the price can pass the stoploss between the
     * read of the live price and the edit (refused: the stoploss must be below the price); a new try reads again.
     */
    async function trigger(kind: Kind, botId: string, token: string): Promise<boolean> {
      if (kind === 'stop_sell') {
        // The answer never comes when the kill lands while the sale is under way.
        await post(token, '/api/stopbotwithsell', { botID: botId, botData: {}, totalPnl: 0 }).catch(
          () => null,
        );
        return true;
      }
      if (kind !== 'stoploss') return true;
      // Just below the live price: the replay (fast-forwarded, looping over three days) crosses it within moments.
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const info = await post(token, '/api/botinfo', { botID: botId }).catch(() => null);
        const live = Number(info?.body.liveprice);
        if (!(live > 0)) continue;
        const edit = await post(token, '/api/sltpedit', {
          botID: botId,
          sellAllAndPausePrice: null,
          restartPrice: null,
          stoplossPrice: Number((live * 0.998).toFixed(2)),
        }).catch(() => null);
        // No answer: the kill landed while the edit's stoploss was already selling.
        if (edit === null || edit.status === 200) return true;
      }
      return false;
    }

    const hits: string[] = [];
    for (let i = 0; i < KILLS; i += 1) {
      const kind = KINDS[i % KINDS.length]!;
      const point = POINTS[i % POINTS.length]!;
      const userId = await insertUserWithKeys(db, t.secrets);
      const token = await insertSession(db, userId);
      const botId =
        kind === 'cycle_end'
          ? await insertCycle(db, userId, {
              symbol: 'SOLUSDT',
              buyPrice: sol0 * 1.001,
              sellPrice: sol0 * 1.003,
              cycles: 1,
              amount: 200,
            })
          : await insertBot(db, userId, { symbol: 'ETHUSDT', investment: 1000, params: holdOnly });

      const child = await t.harness.startServer(port, {
        entry: crashServerMain,
        env: { CRASH_AT: point, CRASH_BOT: botId },
        mayDie: true,
      });
      expect(await until(async () => (await fillsOf(botId)).length > 0, 30_000)).toBe(true);
      expect(await trigger(kind, botId, token), `${kind}: the final sell was started`).toBe(true);
      if (await t.harness.exited(child, 30_000)) hits.push(`${kind} ${point}`);
      else await t.harness.kill(child, 'SIGKILL');

      // The restart settles the bot: Stopped, every intent ended.
      const settled = await t.harness.startServer(port);
      const done = await until(async () => {
        const [row] = await db.select({ status: bots.status }).from(bots).where(eq(bots.id, botId));
        const open = await db
          .select()
          .from(botIntents)
          .where(and(eq(botIntents.botId, botId), inArray(botIntents.status, ['pending', 'unknown'])));
        return row?.status === 'Stopped' && open.length === 0;
      }, 60_000);
      await t.harness.kill(settled, 'SIGTERM');
      expect(done, `${kind} killed at ${point} settles`).toBe(true);

      const fills = await t.harness.expectConsistent(userId, botId, kind === 'cycle_end' ? 'SOL' : 'ETH');
      const sells = fills.filter((f) => f.side === 'sell');
      expect(sells, `${kind} killed at ${point}: one sale`).toHaveLength(1);
      // The sale took all the bot held: the buys' fees came out of the coin (docs/trading-rules.md §3), and what
      // is left is below one step of the pair, which no order can carry.
      const base = kind === 'cycle_end' ? 'SOL' : 'ETH';
      const left = await t.harness.coinHeld(userId, base);
      expect(
        left.gte(0) && left.lt(getMarketRules(`${base}USDT`, 'spot').stepSize),
        `${base} left: ${left}`,
      ).toBe(true);
      const [row] = await db.select().from(bots).where(eq(bots.id, botId));
      if (kind === 'stop_sell') {
        expect(row?.stopReason).toBe('manual_sell');
        const commands = await db.select().from(botCommands).where(eq(botCommands.botId, botId));
        expect(commands.map((c) => c.status)).toEqual(['done']);
      }
      if (kind === 'stoploss') expect(row?.stopReason).toBe('stoploss');
    }
    // Every kill landed on the moment it aimed at.
    expect(hits).toHaveLength(KILLS);
  }, 1_200_000);
});
