/**
 * Paper bots on the replay feed against the backtest CLI's engine run (docs/trading-rules.md §2.5): the replay feed
 * publishes each candle's path points and the runtime walks the straight lines between them, so a paper bot on a
 * week of 1-minute candles makes the backtest's fills and ends with its total PnL. The feed is driven tick by tick
 * on a fake clock, and each bot has taken a tick before the next goes out: a bot busy with an order skips to the
 * latest price (the feed coalesces), which a backtest never does.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { botFills, bots, createTestDb, type DbHandle } from '@gridbot/db';
import {
  botStats,
  compileRules,
  type EngineState,
  type GridParams,
  parseCandlesCsv,
  runBacktest,
} from '@gridbot/engine';
import { PaperExchange, ReplayFeed } from '@gridbot/exchange';
import { FakeClock } from '@gridbot/exchange/testing';
import { DEFAULT_FEE_PCT, getMarketRules, type MarketKind, type Money, money } from '@gridbot/shared';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../lib/secret-box';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { insertBot, insertUserWithKeys } from '../testing/bot-fixtures';
import { BotSupervisor } from './bot-supervisor';

const FIXTURES = new URL('../../../../fixtures/backtest/', import.meta.url);
const WEEK = 7 * 1440;
/** One 15-second step of a 1-minute candle's four path points per millisecond of the fake clock. */
const SPEED = 15_000;

/** The first week of a fixture's 1-minute candles, as CSV text. */
async function firstWeek(name: string): Promise<string> {
  const lines = gunzipSync(await readFile(new URL(name, FIXTURES)))
    .toString('utf8')
    .trim()
    .split('\n');
  return lines.slice(0, WEEK + 1).join('\n');
}

const multigrid: GridParams = {
  type: 'multigrid',
  name: 'Trailing five',
  grids: 5,
  alloc: [0.2, 0.2, 0.2, 0.2, 0.2],
  buyPct: [0, 1.5, 1.5, 2, 2],
  buyUpPct: [0, 0.3, 0.3, 0.3, 0.3],
  tpPct: [1, 1, 1, 1, 1],
  tpDownPct: [0.2, 0.2, 0.2, 0.2, 0.2],
};
const scalping: GridParams = {
  type: 'scalping',
  name: 'Scalp four',
  grids: 4,
  alloc: [0.25, 0.25, 0.25, 0.25],
  buyPct: [0, 1, 1.5, 2],
  tpPct: 0.8,
};
const futuresGrid: GridParams = {
  type: 'multigrid',
  name: 'Futures four',
  grids: 4,
  alloc: [0.25, 0.25, 0.25, 0.25],
  buyPct: [0, 1, 1, 1.5],
  buyUpPct: [0, 0.2, 0.2, 0.2],
  tpPct: [0.8, 0.8, 0.8, 0.8],
  tpDownPct: [0.1, 0.1, 0.1, 0.1],
};

interface Case {
  label: string;
  symbol: string;
  market: MarketKind;
  params: GridParams;
  leverage: number;
  csv: string;
}

let handle: DbHandle;
let dir: string;
beforeAll(async () => {
  handle = await createTestDb();
  dir = await mkdtemp(join(tmpdir(), 'replay-consistency-'));
});
afterAll(async () => {
  await handle.close();
  await rm(dir, { recursive: true, force: true });
});

type Row = {
  side: string;
  grid: number;
  price: number | string;
  qty: number | string;
  quote: number | string;
  fee: number | string;
};

/**
 * The orders of a list of fill rows: the backtest writes a sale of several lots (a Scalping take-profit, a
 * sell-all) as a row per lot and the runtime as one row, so consecutive sells at one price are one order here,
 * with the grid of its first row and its sums (to 6 decimals: each lot's fee is rounded on its own).
 */
function orders(rows: readonly Row[]): string[][] {
  const out: Array<{ side: string; grid: number; price: string; qty: Money; quote: Money; fee: Money }> = [];
  for (const r of rows) {
    const price = money(r.price).toFixed(8);
    const prev = out.at(-1);
    if (prev && r.side === 'sell' && prev.side === 'sell' && prev.price === price) {
      prev.qty = prev.qty.plus(r.qty);
      prev.quote = prev.quote.plus(r.quote);
      prev.fee = prev.fee.plus(r.fee);
    } else {
      out.push({
        side: r.side,
        grid: r.grid,
        price,
        qty: money(r.qty),
        quote: money(r.quote),
        fee: money(r.fee),
      });
    }
  }
  return out.map((o) => [
    o.side,
    String(o.grid),
    o.price,
    o.qty.toFixed(8),
    o.quote.toFixed(6),
    o.fee.toFixed(6),
  ]);
}

describe('paper bots on the replay feed against the backtest (docs/trading-rules.md §2.5)', () => {
  it('fill for fill and to the cent of total PnL over a week of 1-minute candles', async () => {
    const btc = await firstWeek('binance-spot-BTCUSDT-1m-20210506-20210520.csv.gz');
    const eth = await firstWeek('binance-futures-ETHUSDT-1m-20250505-20250511.csv.gz');
    // The replay's file names say which stream each feeds; spot ETHUSDT follows the futures file.
    await writeFile(join(dir, 'binance-spot-BTCUSDT-1m-week.csv'), btc);
    await writeFile(join(dir, 'binance-futures-ETHUSDT-1m-week.csv'), eth);
    const cases: Case[] = [
      {
        label: 'Multigrid spot',
        symbol: 'BTCUSDT',
        market: 'spot',
        params: multigrid,
        leverage: 1,
        csv: btc,
      },
      { label: 'Scalping spot', symbol: 'ETHUSDT', market: 'spot', params: scalping, leverage: 1, csv: eth },
      {
        label: 'Multigrid futures',
        symbol: 'ETHUSDT',
        market: 'future',
        params: futuresGrid,
        leverage: 3,
        csv: eth,
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
    const secrets = SecretBox.fromKey(Buffer.alloc(32, 4));
    const botIds: string[] = [];
    for (const c of cases) {
      const userId = await insertUserWithKeys(handle.db, secrets);
      botIds.push(
        await insertBot(handle.db, userId, {
          symbol: c.symbol,
          market: c.market,
          params: c.params,
          leverage: c.leverage,
          investment: 1000,
        }),
      );
    }
    const initial = await Promise.all(
      botIds.map(async (id) => {
        const [row] = await handle.db.select().from(bots).where(eq(bots.id, id));
        return row!.engineState as unknown as EngineState;
      }),
    );
    const supervisor = new BotSupervisor({
      db: handle.db,
      feed,
      exchanges: paperGateway(paper),
      loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
      now: () => Date.now(),
      log: () => {},
    });
    await supervisor.start();

    // Every path point of the week, one 15-second step at a time, each bot done with it before the next.
    const settled = () => Promise.all(botIds.map((id) => supervisor.runner(id)?.serial(async () => {})));
    await feed.start();
    await settled();
    for (let k = 0; k < WEEK * 4; k++) {
      clock.advance(1);
      await settled();
    }
    const finalStates = botIds.map((id) => supervisor.runner(id)?.currentState);
    await supervisor.stop();
    await feed.stop();
    await paper.stop();

    for (const [k, c] of cases.entries()) {
      const candles = parseCandlesCsv(c.csv);
      const expected = runBacktest(initial[k]!, candles, compileRules(getMarketRules(c.symbol, c.market)), {
        feePct: DEFAULT_FEE_PCT[c.market],
        spotBuyFeeAsset: 'base',
      });
      const actual = await handle.db
        .select()
        .from(botFills)
        .where(eq(botFills.botId, botIds[k]!))
        .orderBy(asc(botFills.seq), asc(botFills.id));
      expect(expected.fills.length, c.label).toBeGreaterThan(10);
      expect(orders(actual), c.label).toEqual(orders(expected.fills));
      const state = finalStates[k]!;
      const last = candles.close[candles.close.length - 1] as number;
      const total = botStats(state, { price: last, timeMs: 0 }, DEFAULT_FEE_PCT[c.market]).totalPnl;
      expect(money(total).toFixed(2), c.label).toBe(money(expected.summary.totalPnl).toFixed(2));
    }
  }, 300_000);
});
