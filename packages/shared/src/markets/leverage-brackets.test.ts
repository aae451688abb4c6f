import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findMaintBrackets } from './leverage-brackets';
import { SYMBOLS } from './market-rules';

interface RefBracket {
  notionalFloor: number;
  notionalCap: number;
  maintMarginRatio: number;
  cum: number;
}

const reference = JSON.parse(
  readFileSync(
    new URL('../../../../fixtures/binance-futures-leverage-brackets.json', import.meta.url),
    'utf8',
  ),
) as Record<string, RefBracket[]>;

describe('leverage brackets table', () => {
  it.each(SYMBOLS)('%s matches Binance leverageBracket', (symbol) => {
    const ref = reference[symbol];
    expect(ref).toBeDefined();
    expect(findMaintBrackets(symbol)).toEqual(ref!.map((b) => [b.notionalCap, b.maintMarginRatio, b.cum]));
  });

  it('has contiguous brackets whose maintenance margin is continuous at every cap', () => {
    for (const symbol of SYMBOLS) {
      const list = findMaintBrackets(symbol)!;
      for (let i = 1; i < list.length; i++) {
        const [cap, rate, cum] = list[i - 1]!;
        const [, nextRate, nextCum] = list[i]!;
        expect(cap * nextRate - nextCum).toBeCloseTo(cap * rate - cum, 6);
      }
    }
  });

  it('answers undefined for a symbol it does not list', () => {
    expect(findMaintBrackets('FOOUSDT')).toBeUndefined();
    expect(findMaintBrackets('btcusdt')?.[0]).toEqual([50_000, 0.004, 0]);
  });
});
