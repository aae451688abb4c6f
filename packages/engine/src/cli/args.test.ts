import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from './args';

const base = ['--strategy', 's.json', '--candles', 'c.csv.gz', '--symbol', 'btcusdt'];

describe('backtest flags', () => {
  it('reads the flags of DESIGN §2.5', () => {
    expect(
      parseArgs([...base, '--investment', '1000', '--category', 'future', '--leverage=3', '--json']),
    ).toEqual({
      strategy: 's.json',
      cycle: null,
      candles: 'c.csv.gz',
      symbol: 'BTCUSDT',
      investment: 1000,
      category: 'future',
      leverage: 3,
      json: true,
      feePct: null,
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
  ])('rejects %j', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(new UsageError(message));
  });

  it('lets a cycle take its amount from the file', () => {
    expect(parseArgs(['--cycle', 'c.json', '--candles', 'c.csv', '--symbol', 'BTCUSDT'])).toMatchObject({
      investment: null,
    });
  });
});
