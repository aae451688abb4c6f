/**
 * The browser's backtest (the worker's core, fed candles that went through the wire encoding) against the
 * backtest CLI on the same candles and settings: fill for fill, and the same report.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseCandlesCsv } from '@gridbot/engine';
import { decodeCandles, encodeCandles } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { chartBars, runBacktestJob, verdictOf } from './backtest-core';

const root = (path: string) => resolve(__dirname, '../../../../../..', path);
const SCRIPT = root('scripts/backtest.mjs');
const strategyFile = (name: string) => root(`packages/engine/src/testing/fixtures/${name}`);

function cliJson(args: string[]) {
  const out = execFileSync(process.execPath, [SCRIPT, ...args, '--json'], { maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(out.toString('utf8'));
}

/** The candles as the browser gets them: parsed, encoded by the server, decoded in the worker. */
function wireCandles(file: string, symbol: string, category: 'spot' | 'future') {
  const text = gunzipSync(readFileSync(root(`fixtures/${file}`))).toString('utf8');
  const parsed = parseCandlesCsv(text);
  return decodeCandles(encodeCandles(parsed, { symbol, category, interval: '1m', source: 'replay' }));
}

const cases = [
  {
    name: 'Multigrid on BTCUSDT spot, 1-minute candles',
    file: 'backtest/binance-spot-BTCUSDT-1m-20240402-20240407.csv.gz',
    symbol: 'BTCUSDT',
    category: 'spot' as const,
    strategy: 'multigrid-5.json',
    investment: 1000,
    leverage: null,
    extra: { profitBookPct: null, stoplossPrice: 64_000 },
  },
  {
    name: 'Scalping on ETHUSDT futures at 3× leverage',
    file: 'backtest/binance-futures-ETHUSDT-1m-20250505-20250511.csv.gz',
    symbol: 'ETHUSDT',
    category: 'future' as const,
    strategy: 'scalping-5.json',
    investment: 500,
    leverage: 3,
    extra: { profitBookPct: null, stoplossPrice: null },
  },
  {
    name: 'Multigrid on ETHUSDT futures at 2× leverage, paying and receiving funding',
    file: 'backtest/binance-futures-ETHUSDT-1m-20250505-20250511.csv.gz',
    funding: 'backtest/binance-futures-ETHUSDT-funding-8h-20250306-20250615.csv.gz',
    symbol: 'ETHUSDT',
    category: 'future' as const,
    strategy: 'multigrid-5.json',
    investment: 1000,
    leverage: 2,
    extra: { profitBookPct: null, stoplossPrice: null },
  },
];

/**
 * The funding rates as the browser gets them: those of the candles' period (as GET /api/candles sends them
 * with futures candles), through JSON, into the worker's columns.
 */
function wireFunding(file: string, candles: { openTimeMs: Float64Array }) {
  const rows = gunzipSync(readFileSync(root(`fixtures/${file}`)))
    .toString('utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',').map(Number) as [number, number]);
  const from = candles.openTimeMs[0] as number;
  const to = (candles.openTimeMs[candles.openTimeMs.length - 1] as number) + 60_000;
  const inPeriod = rows.filter(([t]) => t >= from && t < to);
  const sent = JSON.parse(
    JSON.stringify({ timeMs: inPeriod.map((r) => r[0]), rate: inPeriod.map((r) => r[1]) }),
  ) as { timeMs: number[]; rate: number[] };
  return { timeMs: Float64Array.from(sent.timeMs), rate: Float64Array.from(sent.rate) };
}

describe('the browser backtest equals the CLI', { timeout: 120_000 }, () => {
  for (const c of cases) {
    it(c.name, () => {
      const candles = wireCandles(c.file, c.symbol, c.category);
      const strategy = JSON.parse(readFileSync(strategyFile(c.strategy), 'utf8'));
      const browser = runBacktestJob(
        {
          strategy,
          symbol: c.symbol,
          category: c.category,
          investment: c.investment,
          leverage: c.leverage,
          ...c.extra,
        },
        candles,
        undefined,
        { funding: c.funding ? wireFunding(c.funding, candles) : null },
      );
      const cli = cliJson([
        '--strategy',
        strategyFile(c.strategy),
        '--candles',
        root(`fixtures/${c.file}`),
        '--symbol',
        c.symbol,
        '--category',
        c.category,
        '--investment',
        String(c.investment),
        ...(c.leverage ? ['--leverage', String(c.leverage)] : []),
        ...(c.extra.stoplossPrice ? ['--stoploss', String(c.extra.stoplossPrice)] : []),
        ...(c.funding ? ['--funding', root(`fixtures/${c.funding}`)] : []),
      ]);
      expect(browser.ok).toBe(true);
      if (!browser.ok) return;
      expect(browser.fills.length).toBeGreaterThan(10);
      expect(browser.fills).toEqual(cli.fills);
      expect(browser.summary).toEqual(cli.summary);
      expect(browser.equity).toEqual(cli.equityCurve);
      if (c.funding) {
        expect(browser.fills.filter((f) => f.side === 'FUNDING').length).toBeGreaterThan(10);
        expect(browser.summary.funding).not.toBe(0);
      }
    });
  }
});

describe('what the results view draws', () => {
  const cols = {
    openTimeMs: Float64Array.from([0, 60_000, 120_000, 180_000]),
    open: Float64Array.from([100, 102, 98, 101]),
    high: Float64Array.from([103, 104, 102, 105]),
    low: Float64Array.from([99, 97, 96, 100]),
    close: Float64Array.from([102, 98, 101, 104]),
  };

  it('counts the fills into their chart bar', () => {
    const fill = (time: number, side: 'buy' | 'sell') => ({
      time,
      side,
      grid: 1,
      price: 1,
      qty: 1,
      quote: 1,
      fee: 0,
      pnl: 0,
    });
    const bars = chartBars(cols, [fill(0, 'buy'), fill(120_000, 'buy'), fill(180_000, 'sell')]);
    expect(bars.map((b) => [b.buys, b.sells])).toEqual([
      [1, 0],
      [0, 0],
      [1, 0],
      [0, 1],
    ]);
  });

  it('says when holding beat the strategy, and liquidation above all', () => {
    const base = { roiPct: 2, buyAndHoldPct: 5, stopReason: null } as Parameters<typeof verdictOf>[0];
    expect(verdictOf(base)).toBe(
      'Holding the coin would have beaten this strategy: +5.00 % against +2.00 %.',
    );
    expect(verdictOf({ ...base, buyAndHoldPct: 1 })).toBeNull();
    expect(verdictOf({ ...base, stopReason: 'liquidated' })).toBe(
      'This bot would have been liquidated in this period: the position lost its margin.',
    );
  });

  it('holds the coin from the first open and measures drawdown from the peak', () => {
    const strategy = JSON.parse(readFileSync(strategyFile('multigrid-5.json'), 'utf8'));
    const r = runBacktestJob(
      { strategy, symbol: 'BTCUSDT', category: 'spot', investment: 1000 },
      wireCandles('backtest/binance-spot-BTCUSDT-1m-20240402-20240407.csv.gz', 'BTCUSDT', 'spot'),
    );
    if (!r.ok) throw new Error(r.problems.join());
    expect(r.hold[0]?.equity).toBe(1000);
    const lastHold = r.hold[r.hold.length - 1]?.equity as number;
    // The report rounds the percentage to 6 decimals.
    expect(lastHold).toBeCloseTo(1000 * (1 + r.summary.buyAndHoldPct / 100), 3);
    expect(Math.min(...r.drawdown.map((d) => d.equity))).toBeLessThanOrEqual(0);
    expect(r.bars.length).toBeLessThanOrEqual(1500);
  });
});
