/**
 * The browser's range grid backtest (the worker's core, fed candles that went through the wire encoding, in
 * chunks) against the backtest CLI on the same candles and strategy: fill for fill, and the same summary.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseCandlesCsv } from '@gridbot/engine';
import { decodeCandles, encodeCandles } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { runRangeJob } from './range-core';

const root = (path: string) => resolve(__dirname, '../../../../../..', path);
const FILE = 'backtest/binance-spot-BTCUSDT-1m-20240402-20240407.csv.gz';

function wireCandles() {
  const text = gunzipSync(readFileSync(root(`fixtures/${FILE}`))).toString('utf8');
  return decodeCandles(
    encodeCandles(parseCandlesCsv(text), {
      symbol: 'BTCUSDT',
      category: 'spot',
      interval: '1m',
      source: 'replay',
    }),
  );
}

describe('the browser range backtest equals the CLI', { timeout: 120_000 }, () => {
  it('a geometric spot grid on BTCUSDT, 1-minute candles fed 1,000 at a time', () => {
    const strategy = { type: 'range', lower: 64000, upper: 70000, grids: 20, mode: 'geometric' };
    const dir = mkdtempSync(join(tmpdir(), 'range-core-'));
    const file = join(dir, 'range.json');
    writeFileSync(file, JSON.stringify(strategy));
    const progress: number[] = [];
    const browser = runRangeJob(
      { strategy, symbol: 'BTCUSDT', category: 'spot', investment: 1000 },
      wireCandles(),
      (done) => progress.push(done),
      { chunk: 1000 },
    );
    const out = execFileSync(
      process.execPath,
      [
        root('scripts/backtest.mjs'),
        '--strategy',
        file,
        '--candles',
        root(`fixtures/${FILE}`),
        '--symbol',
        'BTCUSDT',
        '--category',
        'spot',
        '--investment',
        '1000',
        '--json',
      ],
      { maxBuffer: 256 * 1024 * 1024 },
    );
    const cli = JSON.parse(out.toString('utf8'));
    expect(browser.ok).toBe(true);
    if (!browser.ok) return;
    expect(browser.summary.matchedTrades).toBeGreaterThan(5);
    expect(browser.fills).toEqual(cli.fills);
    expect(browser.summary).toEqual(cli.summary);
    expect(progress.slice(0, 2)).toEqual([1000, 2000]);
  });

  it("refuses with the engine's reasons what the start would refuse", () => {
    const candles = wireCandles();
    const outcome = runRangeJob(
      {
        strategy: { type: 'range', lower: 66000, upper: 66500, grids: 20 },
        symbol: 'BTCUSDT',
        category: 'spot',
        investment: 1000,
      },
      candles,
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.problems.join('\n')).toContain('does not cover twice the 0.1% fee');
  });
});
