import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allMarketRules, findMarketRules, SYMBOLS } from './market-rules';

const reference = JSON.parse(
  readFileSync(new URL('../../../../fixtures/binance-markets.json', import.meta.url), 'utf8'),
) as Record<'spot' | 'usdm_futures', Record<string, Record<string, string | number>>>;

describe('market rules table', () => {
  it('lists the 22 pairs of docs/product.md §5 on both markets', () => {
    expect(SYMBOLS).toHaveLength(22);
    expect(allMarketRules()).toHaveLength(44);
  });

  it.each(allMarketRules())('$market $symbol matches Binance metadata', (rules) => {
    const ref = reference[rules.market === 'spot' ? 'spot' : 'usdm_futures'][rules.symbol];
    expect(ref).toBeDefined();
    expect(rules.tickSize).toBe(ref!.tickSize);
    expect(rules.stepSize).toBe(ref!.stepSize);
    expect(rules.minNotional).toBe(ref!.minNotional);
    if (rules.market === 'future') expect(rules.maintMarginRate).toBe(ref!.maintMarginRatioTier1);
  });

  it('finds symbols case-insensitively and answers undefined for unknown ones', () => {
    expect(findMarketRules('btcusdt', 'spot')?.symbol).toBe('BTCUSDT');
    expect(findMarketRules('FOOUSDT', 'future')).toBeUndefined();
  });
});
