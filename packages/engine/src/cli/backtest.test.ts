/** The backtest CLI, spawned as users run it (tsx), on real candles and on bad input. */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixturePath, marketDataPath } from '../testing/data';

const TSX = fileURLToPath(new URL('../../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./backtest.ts', import.meta.url));
const BTC_2024 = marketDataPath('backtest/binance-spot-BTCUSDT-1m-20240402-20240407.csv.gz');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSX, SCRIPT, ...args],
      { maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

const spot = ['--strategy', fixturePath('multigrid-5.json'), '--candles', BTC_2024, '--symbol', 'BTCUSDT'];

// Few spawns (each costs a tsx start-up); flag parsing is covered in-process by args.test.ts.
describe.concurrent('backtest CLI (DESIGN §2.5)', { timeout: 60_000 }, () => {
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
    expect(out.summary).toEqual({
      bookedProfit: 17.6722417257,
      fees: 4.0128307153,
      trades: 20,
      openGrids: 2,
      unrealizedPnl: -2.441626941,
      totalPnl: 15.2306147847,
      maxDrawdownPct: 5.177018,
    });
  });

  it('runs a futures cycle from --cycle with leverage and prints a table without --json', async () => {
    // Amount 100 USDT margin × 3 → about 300 USDT notional per buy.
    const cycle = join(tmpdir(), `cycle-${process.pid}.json`);
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

  it.each([
    [
      [...spot, '--investment', 'abc'],
      2,
      'backtest: --investment must be a number > 0, got "abc" (run with --help for usage)',
    ],
    [
      [...spot, '--investment', '20'],
      1,
      'backtest: Grid 1 order of 4 USDT is below the minimum order of 5 USDT for BTCUSDT spot;',
    ],
  ])('exits non-zero with a one-line message on bad input %#', async (args, code, message) => {
    const r = await cli(args);
    expect(r.code).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(message);
  });
});
