import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { botFills, createTestDb, type DbHandle } from '@gridbot/db';
import { compileRules, createGridBot, parseCandlesCsv, runBacktest } from '@gridbot/engine';
import { PaperExchange } from '@gridbot/exchange';
import { ManualFeed } from '@gridbot/exchange/testing';
import { getMarketRules, money } from '@gridbot/shared';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertBot, insertUserWithKeys, simpleMultigrid } from '../testing/bot-fixtures';
import { BotSupervisor } from './bot-supervisor';

const DAY_FILE = new URL(
  '../../../../fixtures/backtest/binance-spot-ETHUSDT-1m-20210420-20210421.csv.gz',
  import.meta.url,
);
const CANDLES_IN_A_DAY = 1440;

let handle: DbHandle;
beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(async () => {
  await handle.close();
});

function firstDay() {
  const text = gunzipSync(readFileSync(DAY_FILE)).toString('utf8');
  const lines = text.trim().split('\n');
  return parseCandlesCsv(lines.slice(0, CANDLES_IN_A_DAY + 1).join('\n'));
}

describe('paper bot against the engine backtest (docs/trading-rules.md §2.5 consistency)', () => {
  it('fills exactly what the backtest fills over a replayed day of real ETHUSDT candles', async () => {
    const candles = firstDay();
    const rules = getMarketRules('ETHUSDT', 'spot');
    const investment = 1000;

    // The engine alone, as `npm run backtest` runs it, noting every price of the path it was fed.
    const initial = createGridBot({ params: simpleMultigrid, investment, market: 'spot', startTimeMs: 0 });
    const path: number[] = [];
    const expected = runBacktest(initial, candles, compileRules(rules), {
      feePct: 0.1,
      // The paper exchange takes a spot buy's fee from the coin bought, as Binance does.
      spotBuyFeeAsset: 'base',
      onTick: (price) => path.push(price),
    }).fills;
    expect(expected.length).toBeGreaterThan(10);

    // The same path (replayed) through the feed, the runtime, the paper exchange and the database.
    const feed = new ManualFeed();
    const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
    await paper.start();
    const userId = await insertUserWithKeys(handle.db, SecretBox.fromKey(Buffer.alloc(32, 9)));
    const botId = await insertBot(handle.db, userId, { symbol: 'ETHUSDT', investment });
    const supervisor = new BotSupervisor({
      db: handle.db,
      feed,
      exchanges: paperGateway(paper),
      loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
      now: () => Date.now(),
      log: () => {},
    });
    await supervisor.start();
    for (const price of path) {
      feed.setPrice('ETHUSDT', 'spot', String(price));
      // Wait until the bot has handled this tick: live bots coalesce ticks while busy, a backtest never does.
      await supervisor.runner(botId)?.serial(async () => {});
    }
    await supervisor.stop();
    await paper.stop();

    const actual = await handle.db
      .select()
      .from(botFills)
      .where(eq(botFills.botId, botId))
      .orderBy(asc(botFills.seq));
    const round = (v: number | string) => money(v).toFixed(8);
    expect(
      actual.map((f) => [
        f.side,
        f.grid,
        round(f.price),
        round(f.qty),
        round(f.quote),
        round(f.fee),
        f.pnl === null ? null : round(f.pnl),
      ]),
    ).toEqual(
      expected.map((f) => [
        f.side,
        f.grid,
        round(f.price),
        round(f.qty),
        round(f.quote),
        round(f.fee),
        f.side === 'sell' ? round(f.pnl) : null,
      ]),
    );

    // And the paper exchange's USDT ledger equals the sum of the fills, to the cent (a buy's fee was paid in ETH).
    const usdt = (await paper.store.ledger(userId))
      .filter((l) => l.asset === 'USDT')
      .reduce((s, l) => s.plus(l.amount), money(0));
    const fromFills = actual.reduce(
      (s, f) => (f.side === 'buy' ? s.minus(f.quote) : s.plus(f.quote).minus(f.fee)),
      money(10_000),
    );
    expect(usdt.toFixed(2)).toBe(fromFills.toFixed(2));
  }, 120_000);
});
