/**
 * Paper range grids on the replay feed against the range backtest (docs/trading-rules.md §2.6): the replay feed
 * publishes each candle's path points, the paper exchange fills the resting limit orders each line reaches at
 * their own price with the maker fee, and the runtime books them in path order and answers them one level
 * away; it holds a futures grid's shorts as one one-way position per symbol (opening sells, reduce-only buys
 * one level down, a neutral grid's longs and shorts netted). So a spot grid and futures long, short and neutral
 * grids make the backtest's fills, order for order, over the same candles. Driven tick by tick on a fake clock,
 * each bot done with a tick before the next goes out.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { botFills, createTestDb, type DbHandle } from '@gridbot/db';
import { compileRules, parseCandlesCsv, type RangeFillRecord, runRangeBacktest } from '@gridbot/engine';
import { PaperExchange, ReplayFeed } from '@gridbot/exchange';
import { FakeClock } from '@gridbot/exchange/testing';
import { getMarketRules, type MarketKind, money, rangeStrategySchema } from '@gridbot/shared';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertUserWithKeys } from '../testing/bot-fixtures';
import { insertRangeBot } from '../testing/range-fixtures';
import { BotSupervisor } from './bot-supervisor';

const FIXTURES = new URL('../../../../fixtures/backtest/', import.meta.url);
/** A day of 1-minute candles. */
const CANDLES = 1440;
const SPEED = 15_000;

async function firstCandles(name: string): Promise<string> {
  const lines = gunzipSync(await readFile(new URL(name, FIXTURES)))
    .toString('utf8')
    .trim()
    .split('\n');
  return lines.slice(0, CANDLES + 1).join('\n');
}

let handle: DbHandle;
let dir: string;
beforeAll(async () => {
  handle = await createTestDb();
  dir = await mkdtemp(join(tmpdir(), 'range-replay-'));
});
afterAll(async () => {
  await handle.close();
  await rm(dir, { recursive: true, force: true });
});

type Row = {
  side: string;
  grid?: number;
  level?: number | null;
  price: unknown;
  qty: unknown;
  quote: unknown;
  fee: unknown;
  pnl: unknown;
};

/** A fill as both sides write it: side, level (0 for a market order), price, qty, quote, fee and pnl. */
function rowOf(r: Row): string[] {
  const level = r.grid ?? r.level ?? 0;
  const pnl =
    r.pnl === null || r.pnl === undefined || (r.grid === undefined && Number(r.pnl) === 0)
      ? '-'
      : money(r.pnl as string).toFixed(6);
  return [
    r.side,
    String(level),
    money(r.price as string).toFixed(8),
    money(r.qty as string).toFixed(8),
    money(r.quote as string).toFixed(6),
    money(r.fee as string).toFixed(6),
    pnl,
  ];
}

/** A futures grid on a day of ETHUSDT, 1740–1840 in ten levels at 3×. */
const ethGrid = (direction: 'long' | 'short' | 'neutral') => ({
  type: 'range',
  lower: 1740,
  upper: 1840,
  grids: 10,
  direction,
  leverage: 3,
});

describe('paper range grids on the replay feed against the range backtest (docs/trading-rules.md §2.6)', () => {
  it('a spot grid and futures long, short and neutral grids make the backtest fills, order for order, over a day of 1-minute candles', async () => {
    const btc = await firstCandles('binance-spot-BTCUSDT-1m-20210506-20210520.csv.gz');
    const eth = await firstCandles('binance-futures-ETHUSDT-1m-20250505-20250511.csv.gz');
    await writeFile(join(dir, 'binance-spot-BTCUSDT-1m-day.csv'), btc);
    await writeFile(join(dir, 'binance-futures-ETHUSDT-1m-day.csv'), eth);
    const cases: {
      label: string;
      symbol: string;
      market: MarketKind;
      csv: string;
      strategy: unknown;
      /** What sets the grid's own fills apart, checked on the backtest's. */
      check?: (fills: readonly RangeFillRecord[], limitFills: readonly RangeFillRecord[]) => void;
    }[] = [
      {
        label: 'spot grid',
        symbol: 'BTCUSDT',
        market: 'spot',
        csv: btc,
        strategy: { type: 'range', lower: 55_000, upper: 59_000, grids: 20 },
      },
      {
        label: 'futures long grid',
        symbol: 'ETHUSDT',
        market: 'future',
        csv: eth,
        strategy: ethGrid('long'),
      },
      {
        label: 'futures short grid',
        symbol: 'ETHUSDT',
        market: 'future',
        csv: eth,
        strategy: ethGrid('short'),
        // The short grid opens its short with a market sell at the start.
        check: ([first]) => expect([first?.side, first?.level]).toEqual(['sell', null]),
      },
      {
        label: 'futures neutral grid',
        symbol: 'ETHUSDT',
        market: 'future',
        csv: eth,
        strategy: ethGrid('neutral'),
        // The neutral grid opens nothing at the start and trades limit orders only, on both sides.
        check: (fills, limitFills) => {
          expect(fills.every((f) => f.level !== null)).toBe(true);
          expect(new Set(limitFills.map((f) => f.side))).toEqual(new Set(['buy', 'sell']));
        },
      },
    ];
    const clock = new FakeClock();
    const feed = new ReplayFeed({
      dir,
      clock,
      speed: SPEED,
      pollMs: 1,
      symbols: ['BTCUSDT', 'ETHUSDT'],
      warmupCandles: 0,
      loop: false,
    });
    const paper = new PaperExchange({
      store: new SqlPaperStore(handle.db),
      feed,
      startFunds: [
        { wallet: 'spot', asset: 'USDT', amount: '100000' },
        { wallet: 'future', asset: 'USDT', amount: '100000' },
      ],
    });
    await paper.start();
    const secrets = SecretBox.fromKey(Buffer.alloc(32, 5));
    const bots: { botId: string; initial: Awaited<ReturnType<typeof insertRangeBot>>['state'] }[] = [];
    for (const c of cases) {
      const userId = await insertUserWithKeys(handle.db, secrets);
      const params = rangeStrategySchema.parse(c.strategy);
      if (c.market === 'future') await paper.forUser(userId).setLeverage(c.symbol, params.leverage);
      const { botId, state } = await insertRangeBot(handle.db, userId, {
        symbol: c.symbol,
        market: c.market,
        params,
        investment: 1000,
        startTimeMs: 0,
      });
      bots.push({ botId, initial: state });
    }
    const supervisor = new BotSupervisor({
      db: handle.db,
      feed,
      exchanges: paperGateway(paper),
      loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
      now: () => Date.now(),
      log: () => {},
    });
    await supervisor.start();
    const settled = () =>
      Promise.all(bots.map(({ botId }) => supervisor.rangeRunner(botId)?.serial(async () => {})));
    await feed.start();
    await settled();
    for (let k = 0; k < CANDLES * 4; k++) {
      clock.advance(1);
      await settled();
    }
    await supervisor.stop();
    await feed.stop();
    await paper.stop();

    for (const [k, c] of cases.entries()) {
      const candles = parseCandlesCsv(c.csv);
      const expected = runRangeBacktest(
        bots[k]!.initial,
        candles,
        compileRules(getMarketRules(c.symbol, c.market)),
      );
      const actual = await handle.db
        .select()
        .from(botFills)
        .where(eq(botFills.botId, bots[k]!.botId))
        .orderBy(asc(botFills.id));
      const limitFills = expected.fills.filter((f: RangeFillRecord) => f.level !== null);
      expect(limitFills.length, c.label).toBeGreaterThan(10);
      c.check?.(expected.fills, limitFills);
      expect(
        actual.map((r) => rowOf(r as unknown as Row)),
        c.label,
      ).toEqual(expected.fills.map((r) => rowOf(r as unknown as Row)));
    }
  }, 600_000);
});
