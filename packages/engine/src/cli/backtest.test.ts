/** The backtest CLI, spawned as users run it (compiled JavaScript), on real candles and on bad input. */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { getMarketRules } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../backtest/run-backtest';
import { createGridBot } from '../core/grid-bot.state';
import { compileRules } from '../rules';
import { strategyFrom } from '../strategies/parse-strategy';
import { fixturePath, loadCandles, MARKET_DATA_DIR, marketDataPath, readFixture } from '../testing/data';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/backtest.mjs', import.meta.url));
const BTC_2024_FILE = 'backtest/binance-spot-BTCUSDT-1m-20240402-20240407.csv.gz';
const BTC_2024 = marketDataPath(BTC_2024_FILE);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const spot = ['--strategy', fixturePath('multigrid-5.json'), '--candles', BTC_2024, '--symbol', 'BTCUSDT'];

// The files the tests write for the CLI, removed with their folder once the file's tests are done.
let scratch: string;
// Builds the compiled CLI once before the spawns run side by side.
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'gridbot-backtest-cli-'));
  execFileSync(process.execPath, [SCRIPT, '--help']);
}, 60_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Few spawns; flag parsing is covered in-process by args.test.ts.
describe.concurrent('backtest CLI (docs/trading-rules.md §2.5)', { timeout: 60_000 }, () => {
  it('prints every fill and the summary as JSON with --json', async () => {
    const r = await cli([...spot, '--investment', '1000', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out.fills[0])).toEqual([
      'time',
      'side',
      'grid',
      'price',
      'qty',
      'quote',
      'fee',
      'pnl',
    ]);
    expect(out.fills[0]).toMatchObject({
      time: 1712016000000,
      side: 'buy',
      grid: 1,
      price: 69649.81,
      qty: 0.00287,
    });
    // The same figures as the engine's runner in-process, with every summary field of docs/trading-rules.md §2.5.
    const rules = compileRules(getMarketRules('BTCUSDT', 'spot'));
    const bot = createGridBot({
      params: strategyFrom(readFixture('multigrid-5.json')),
      investment: 1000,
      market: 'spot',
      startTimeMs: 0,
    });
    const inProcess = runBacktest(bot, loadCandles(BTC_2024_FILE), rules, { feePct: 0.1 });
    expect(out.summary).toEqual(JSON.parse(JSON.stringify(inProcess.summary)));
    expect(out.fills).toEqual(JSON.parse(JSON.stringify(inProcess.fills)));
  });

  it('runs a futures cycle from --cycle with leverage and prints a table without --json', async () => {
    // Amount 100 USDT margin × 3 → about 300 USDT notional per buy.
    const cycle = join(scratch, 'cycle.json');
    writeFileSync(
      cycle,
      JSON.stringify({ amount: 100, buy_price: 94000, sell_price: 96000, stop_loss: null, no_of_cycle: 2 }),
    );
    const futures = marketDataPath('replay/binance-futures-BTCUSDT-1m-20250505-20250507.csv.gz');
    const r = await cli([
      '--cycle',
      cycle,
      '--candles',
      futures,
      '--symbol',
      'BTCUSDT',
      '--category',
      'future',
      '--leverage',
      '3',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^time\s+side\s+grid\s+price\s+qty\s+quote\s+fee\s+pnl$/);
    expect(lines[2]).toMatch(
      /^2025-05-\d\dT\d\d:\d\d:00Z {2}buy {6}1 {2}\d+(\.\d+)? {2}0\.003 {2}2\d\d\.\d{4}/,
    );
    expect(r.stdout).toMatch(/total PnL +-?\d+\.\d{4} USDT/);
  });

  it('gives the same output for candles split into several files, given in any order', async () => {
    const lines = gunzipSync(readFileSync(BTC_2024)).toString('utf8').trim().split('\n');
    const [header, ...rows] = lines;
    const cuts = [0, 1000, 1001, 4500, rows.length];
    const parts = cuts.slice(1).map((to, i) => {
      const path = join(scratch, `part-${i}.csv${i % 2 === 0 ? '.gz' : ''}`);
      const text = `${[header, ...rows.slice(cuts[i], to)].join('\n')}\n`;
      writeFileSync(path, i % 2 === 0 ? gzipSync(text) : text);
      return path;
    });
    const flags = ['--symbol', 'BTCUSDT', '--investment', '1000', '--stoploss', '66000', '--json'];
    const strategy = ['--strategy', fixturePath('multigrid-5.json')];
    const [whole, split] = await Promise.all([
      cli([...strategy, '--candles', BTC_2024, ...flags]),
      cli([...strategy, ...[...parts].reverse().flatMap((p) => ['--candles', p]), ...flags]),
    ]);
    expect(split.stderr).toBe('');
    expect(split.stdout).toBe(whole.stdout);
    expect(JSON.parse(whole.stdout).summary.equityCurve).toBeUndefined();
    expect(JSON.parse(whole.stdout).equityCurve.length).toBeGreaterThan(5);
  });

  it('stops on a bad candle or funding row with one line naming the file and the line', async () => {
    const [header, first, second] = gunzipSync(readFileSync(BTC_2024)).toString('utf8').split('\n');
    const candles = join(scratch, 'bad-candles.csv.gz');
    writeFileSync(candles, gzipSync(`${[header, first, second?.replace(',', ',x')].join('\n')}\n`));
    const funding = join(scratch, 'bad-funding.csv');
    writeFileSync(funding, 'funding_time_ms,funding_rate\n1714608000000,0.0001\n1714636800000\n');
    const [badCandles, badFunding] = await Promise.all([
      cli([
        '--strategy',
        fixturePath('multigrid-5.json'),
        '--candles',
        candles,
        '--symbol',
        'BTCUSDT',
        '--investment',
        '1000',
      ]),
      cli([...spot, '--investment', '1000', '--category', 'future', '--leverage', '2', '--funding', funding]),
    ]);
    for (const r of [badCandles, badFunding]) {
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(badCandles.stderr).toContain(`candles ${candles}:3: field 2 is not a number`);
    expect(badFunding.stderr).toContain(`funding ${funding}:3: expected 2 fields, got 1`);
  });

  it('reads a folder of one interval between --from and --to', async () => {
    const folder = join(MARKET_DATA_DIR, 'backtest');
    const flags = ['--cycle', fixturePath('cycle-stoploss.json'), '--symbol', 'BTCUSDT', '--json'];
    const mixed = await cli([...flags, '--candles', folder]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/several intervals \(1m, 5m\): choose one with --interval/);
    const r = await cli([
      ...flags,
      '--candles',
      folder,
      '--interval',
      '1m',
      '--from',
      '2021-05-18',
      '--to',
      '2021-05-19',
    ]);
    expect(r.stderr).toBe('');
    const summary = JSON.parse(r.stdout).summary;
    expect(summary.startMs).toBe(Date.UTC(2021, 4, 18));
    expect(summary.endMs).toBe(Date.UTC(2021, 4, 19));
  });

  it('books funding from --funding on a futures backtest', async () => {
    const r = await cli([
      '--strategy',
      fixturePath('multigrid-5.json'),
      '--candles',
      marketDataPath('backtest/binance-futures-BTCUSDT-5m-20250306-20250312.csv.gz'),
      '--funding',
      marketDataPath('backtest/binance-futures-BTCUSDT-funding-8h-20250306-20250603.csv.gz'),
      '--symbol',
      'BTCUSDT',
      '--category',
      'future',
      '--leverage',
      '3',
      '--investment',
      '2000',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    const funding = out.fills.filter((f: { side: string }) => f.side === 'FUNDING');
    expect(funding.length).toBeGreaterThan(10);
    for (const f of funding) expect(new Date(f.time).getUTCHours() % 8).toBe(0);
    const sum = funding.reduce((s: number, f: { pnl: number }) => s + f.pnl, 0);
    expect(out.summary.funding).toBeCloseTo(sum, 8);
  });

  it.each([
    [
      [...spot, '--investment', 'abc'],
      2,
      'backtest: --investment must be a number > 0, got "abc" (run with --help for usage)',
    ],
    [
      [...spot, '--investment', '20'],
      1,
      'backtest: Grid 1 order of 3.4824905 USDT (0.00005 BTC after rounding to the step 0.00001 at 69649.81 USDT) is below the minimum order of 5 USDT for BTCUSDT spot;',
    ],
  ])('exits non-zero with a one-line message on bad input %#', async (args, code, message) => {
    const r = await cli(args);
    expect(r.code).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(message);
  });
});
