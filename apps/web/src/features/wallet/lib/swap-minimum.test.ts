import { describe, expect, it } from 'vitest';
import { swapMinimumReason } from './swap-minimum';

// BTCUSDT spot: step and minimum quantity 0.00001 BTC, minimum order 5 USDT (the shared market rules).
describe('a leftover too small to swap', () => {
  it('is refused below the step: 0.000004 BTC rounds down to no order at all', () => {
    expect(swapMinimumReason('BTC', '0.000004', '60000')).toBe(
      'Too small to swap: 0.000004 BTC is below the smallest order the exchange takes (0.00001 BTC).',
    );
  });

  it('is refused below the minimum order value: 0.00005 BTC at 60,000 is 3.00 USDT, under 5', () => {
    expect(swapMinimumReason('BTC', '0.00005', '60000')).toBe(
      'Too small to swap: 0.00005 BTC is worth about 3.00 USDT, below the smallest order the exchange takes (5 USDT).',
    );
  });

  it('lets a swappable amount through: 0.0001 BTC at 60,000 is 6 USDT', () => {
    expect(swapMinimumReason('BTC', '0.0001', '60000')).toBeNull();
    // Without a price only the step can be checked.
    expect(swapMinimumReason('BTC', '0.00005', undefined)).toBeNull();
    // A coin without a listed pair: nothing to say.
    expect(swapMinimumReason('XYZ', '0.1', '1')).toBeNull();
  });
});
