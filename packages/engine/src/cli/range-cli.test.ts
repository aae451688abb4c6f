/**
 * The backtest CLI with a range grid (docs/trading-rules.md §2.6): the rows and summary it prints, in process,
 * and once spawned as users run it (compiled JavaScript) on real candles.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseFundingCsv } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCandles, marketDataPath } from '../testing/data';
import { parseArgs } from './args';
import { rangeBacktestCli } from './range-cli';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/backtest.mjs', import.meta.url));
const BTC_FILE = 'backtest/binance-spot-BTCUSDT-1m-20240402-20240407.csv.gz';
const FUT_FILE = 'backtest/binance-futures-BTCUSDT-5m-20250306-20250312.csv.gz';
const FUNDING_FILE = 'backtest/binance-futures-BTCUSDT-funding-8h-20250306-20250603.csv.gz';
const STRATEGY = {
  type: 'range',
  lower: 64000,
  upper: 70000,
  grids: 20,
  mode: 'geometric',
  trailingUp: true,
};

let scratch: string;
let strategyPath: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'gridbot-range-cli-'));
  strategyPath = join(scratch, 'range.json');
  writeFileSync(strategyPath, JSON.stringify(STRATEGY));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const argsOf = (...extra: string[]) =>
  parseArgs([
    '--strategy',
    strategyPath,
    '--candles',
    marketDataPath(BTC_FILE),
    '--symbol',
    'BTCUSDT',
    ...(extra.includes('--investment') ? [] : ['--investment', '1000']),
    ...extra,
  ]);

describe('backtest CLI, range grid', () => {
  it('prints rows {time, side, level, price, qty, quote, fee, pnl} and the summary with grid profit', () => {
    const out = rangeBacktestCli(argsOf('--json'), STRATEGY, loadCandles(BTC_FILE));
    if (!('output' in out)) throw new Error(out.problem);
    const { fills, summary } = JSON.parse(out.output);
    expect(Object.keys(fills[0])).toEqual(['time', 'side', 'level', 'price', 'qty', 'quote', 'fee', 'pnl']);
    // The start buys the coin for the sells at market; every other row is a level's limit order.
    expect(fills[0].level).toBeNull();
    // Prices as the exchange shows them: on BTCUSDT's 0.01 tick, limit orders at their level's price.
    expect(fills.filter((f: { price: number }) => !/^\d+(\.\d{1,2})?$/.test(String(f.price)))).toEqual([]);
    expect(fills.slice(1).every((f: { level: number | null }) => f.level !== null)).toBe(true);
    const sells = fills.filter(
      (f: { side: string; level: number | null }) => f.side === 'sell' && f.level !== null,
    );
    expect(summary.matchedTrades).toBe(sells.length);
    const pnl = sells.reduce((t: number, f: { pnl: number }) => t + f.pnl, 0);
    expect(summary.gridProfit).toBeCloseTo(pnl, 8);
    expect(summary.totalPnl).toBeCloseTo(summary.gridProfit + summary.floatingPnl, 8);
    expect(summary.bookedProfit).toBe(summary.gridProfit);
    expect(summary.unrealizedPnl).toBe(summary.floatingPnl);
    expect(summary.trades).toBe(fills.length);
  });

  it('refuses a start it cannot make, and the flags of the other kinds', () => {
    const small = rangeBacktestCli(argsOf('--investment', '10'), STRATEGY, loadCandles(BTC_FILE));
    expect(small).toEqual({
      problem: 'the quantity per order is below the step of 0.00001 BTCUSDT: invest more or use fewer grids',
    });
    expect(() => rangeBacktestCli(argsOf('--pause', '70000'), STRATEGY, loadCandles(BTC_FILE))).toThrow(
      '--pause, --restart and --profit-book do not apply to a range grid',
    );
  });

  it('runs a futures grid with --category future --leverage and books --funding', () => {
    const strategy = { type: 'range', lower: 85000, upper: 95000, grids: 10, direction: 'neutral' };
    const argv = [
      '--strategy',
      strategyPath,
      '--candles',
      marketDataPath(FUT_FILE),
      '--symbol',
      'BTCUSDT',
      '--investment',
      '6000',
      '--category',
      'future',
      '--leverage',
      '3',
      '--funding',
      marketDataPath(FUNDING_FILE),
      '--json',
    ];
    const args = parseArgs(argv);
    const file = marketDataPath(FUNDING_FILE);
    const rates = parseFundingCsv(file, gunzipSync(readFileSync(file)));
    const funding = { timeMs: Float64Array.from(rates.timeMs), rate: Float64Array.from(rates.rate) };
    const out = rangeBacktestCli(args, strategy, loadCandles(FUT_FILE), funding);
    if (!('output' in out)) throw new Error(out.problem);
    const { fills, summary } = JSON.parse(out.output);
    // Neutral: no market order at the start, every row a level's limit order or a funding payment.
    expect(
      fills.filter((f: { level: number | null; side: string }) => f.level === null && f.side !== 'FUNDING'),
    ).toEqual([]);
    const paid = fills.filter((f: { side: string }) => f.side === 'FUNDING');
    expect(paid.length).toBeGreaterThan(0);
    expect(summary.funding).toBeCloseTo(
      paid.reduce((t: number, f: { pnl: number }) => t + f.pnl, 0),
      8,
    );
    // Resting orders pay the futures maker fee, 0.02 % of the notional.
    const limit = fills.find((f: { level: number | null }) => f.level !== null);
    expect(limit.fee).toBeCloseTo(limit.quote * 0.0002, 8);
    // 6000 USDT at 3×: a notional of 18000 over the 10 orders (q = 0.02 BTC).
    expect(limit.qty).toBe(0.02);
    expect(summary.stopReason).toBeNull();
    expect(summary.totalPnl).toBeCloseTo(summary.gridProfit + summary.floatingPnl, 8);
    const text = rangeBacktestCli(
      parseArgs(argv.filter((a) => a !== '--json')),
      strategy,
      loadCandles(FUT_FILE),
      funding,
    );
    if (!('output' in text)) throw new Error(text.problem);
    // A funding row has no level; the summary shows the funding total.
    expect(text.output).toMatch(/\n\S+ +FUNDING +\d/);
    expect(text.output).toMatch(/\nfunding +-?[\d.]+ USDT\n/);
  });

  it('liquidates a futures grid on --mark-candles, not on the trade price', () => {
    // 20× long from the first open (91616.5): BTC fell below 80000 in this week.
    const strategy = { type: 'range', lower: 85000, upper: 95000, grids: 10, leverage: 20 };
    const args = parseArgs([
      '--strategy',
      strategyPath,
      '--candles',
      marketDataPath(FUT_FILE),
      '--symbol',
      'BTCUSDT',
      '--investment',
      '1000',
      '--category',
      'future',
      '--json',
    ]);
    const trades = loadCandles(FUT_FILE);
    const summaryOf = (mark: typeof trades | null) => {
      const out = rangeBacktestCli(args, strategy, trades, null, mark);
      if (!('output' in out)) throw new Error(out.problem);
      return JSON.parse(out.output).summary;
    };
    expect(summaryOf(null).stopReason).toBe('liquidated');
    // A mark that never went below 88000 spares the position.
    const floor = (a: Float64Array) => a.map((p) => Math.max(p, 88000));
    const calm = {
      ...trades,
      open: floor(trades.open),
      high: floor(trades.high),
      low: floor(trades.low),
      close: floor(trades.close),
    };
    expect(summaryOf(calm).stopReason).toBeNull();
  });

  it('runs from the command line as compiled JavaScript', async () => {
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          SCRIPT,
          '--strategy',
          strategyPath,
          '--candles',
          marketDataPath(BTC_FILE),
          '--symbol',
          'BTCUSDT',
          '--investment',
          '1000',
        ],
        (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }),
      );
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^time +side +level +price +qty +quote +fee +pnl$/);
    expect(r.stdout).toMatch(/\ngrid profit +[\d.]+ USDT\n/);
    expect(r.stdout).toMatch(/\nmatched trades +\d+\n/);
  }, 60_000);
});
