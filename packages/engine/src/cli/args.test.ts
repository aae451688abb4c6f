import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from './args';

const base = ['--strategy', 's.json', '--candles', 'c.csv.gz', '--symbol', 'btcusdt'];

describe('backtest flags', () => {
  it('reads the flags of docs/trading-rules.md §2.5', () => {
    expect(
      parseArgs([
        ...base,
        '--candles',
        'd.csv.gz',
        '--investment',
        '1000',
        '--category',
        'future',
        '--leverage=3',
        '--funding',
        'f.csv.gz',
        '--stoploss',
        '25000',
        '--pause',
        '40000',
        '--restart',
        '30000',
        '--profit-book',
        '12.5',
        '--slippage-bps',
        '2',
        '--from',
        '2025-05-01',
        '--to',
        '2025-06-01',
        '--mark-candles',
        'm1.csv.gz',
        '--mark-candles',
        'm2.csv.gz',
        '--json',
      ]),
    ).toEqual({
      strategy: 's.json',
      cycle: null,
      candles: ['c.csv.gz', 'd.csv.gz'],
      fromMs: Date.UTC(2025, 4, 1),
      toMs: Date.UTC(2025, 5, 1),
      interval: null,
      symbol: 'BTCUSDT',
      investment: 1000,
      category: 'future',
      leverage: 3,
      json: true,
      feePct: null,
      slippageBps: 2,
      stoploss: 25000,
      pause: 40000,
      restart: 30000,
      profitBookPct: 12.5,
      funding: 'f.csv.gz',
      markCandles: ['m1.csv.gz', 'm2.csv.gz'],
    });
  });

  it.each([
    [
      ['--candles', 'c', '--symbol', 'X', '--investment', '1'],
      'give exactly one of --strategy FILE.json or --cycle FILE.json',
    ],
    [
      [...base, '--cycle', 'c.json', '--investment', '1'],
      'give exactly one of --strategy FILE.json or --cycle FILE.json',
    ],
    [['--strategy', 's', '--symbol', 'X', '--investment', '1'], '--candles FILE.csv[.gz] is required'],
    [base, '--investment is required (USDT, e.g. 1000)'],
    [[...base, '--investment', '-5'], '--investment must be a number > 0, got "-5"'],
    [[...base, '--investment', '1', '--leverage', '3'], '--leverage needs --category future'],
    [
      [...base, '--investment', '1', '--category', 'margin'],
      '--category must be spot or future, got "margin"',
    ],
    [
      [...base, '--investment', '1', '--category', 'future', '--leverage', '2.5'],
      '--leverage must be a whole number from 1 to 125, got "2.5"',
    ],
    [[...base, '--investment', '1', '--frobnicate'], 'unknown flag --frobnicate'],
    [[...base, '--investment', '1', '--symbol', 'ETHUSDT'], '--symbol given twice'],
    [[...base, '--investment'], '--investment needs a value'],
    [[...base, 'extra'], 'unexpected argument "extra"'],
    [[...base, '--investment', '1', '--funding', 'f.csv'], '--funding needs --category future'],
    [[...base, '--investment', '1', '--mark-candles', 'm.csv'], '--mark-candles needs --category future'],
    [[...base, '--investment', '1', '--stoploss', '0'], '--stoploss must be a number > 0, got "0"'],
    [
      [...base, '--investment', '1', '--interval', 'minute'],
      '--interval must look like 1m, 5m, 1h or 1d, got "minute"',
    ],
    [[...base, '--investment', '1', '--from', 'May'], '--from must be a date like 2025-05-01, got "May"'],
    [
      [...base, '--investment', '1', '--from', '2025-05-02', '--to', '2025-05-01'],
      '--to must be after --from',
    ],
  ])('rejects %j', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(new UsageError(message));
  });

  it('lets a cycle take its amount from the file', () => {
    expect(parseArgs(['--cycle', 'c.json', '--candles', 'c.csv', '--symbol', 'BTCUSDT'])).toMatchObject({
      investment: null,
    });
  });
});
