import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coinCommission, decimalsOf, feeOf, floorToStep, floorToStepNumber, roundToTick } from './money';

describe('money rounding', () => {
  it('rounds a buy quantity down to the step', () => {
    // 100 USDT at 30000 = 0.0033333… BTC; step 0.00001 keeps 0.00333.
    expect(floorToStep('0.0033333333', '0.00001').toString()).toBe('0.00333');
    expect(floorToStep('0.3', '0.1').toString()).toBe('0.3');
  });

  it('rounds a price to the nearest tick', () => {
    expect(roundToTick('30000.126', '0.01').toString()).toBe('30000.13');
    expect(roundToTick('0.123449', '0.0001').toString()).toBe('0.1234');
  });

  it('takes fees in percent of the quote', () => {
    expect(feeOf('1000', '0.1').toString()).toBe('1');
    expect(feeOf('2500', '0.05').toString()).toBe('1.25');
  });

  it("takes a spot buy's commission in the coin, rounded up to 8 decimals", () => {
    expect(coinCommission('10', '0.1').toString()).toBe('0.01');
    // 0.1 % of 0.00333 BTC = 0.00000333; of 0.012345678 = 0.000012345678 → 0.00001235.
    expect(coinCommission('0.00333', '0.1').toString()).toBe('0.00000333');
    expect(coinCommission('0.012345678', '0.1').toString()).toBe('0.00001235');
  });

  it('counts the decimals of a step', () => {
    expect(decimalsOf('0.001')).toBe(3);
    expect(decimalsOf('1')).toBe(0);
  });

  it('agrees with the decimal rounding on numbers, never above the value', () => {
    const steps = ['1', '0.1', '0.01', '0.001', '0.00001', '0.00000001'];
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(...steps), (value, step) => {
        const viaNumber = floorToStepNumber(value, Number(step), decimalsOf(step));
        const viaDecimal = floorToStep(value, step).toNumber();
        expect(viaNumber).toBeLessThanOrEqual(value + Number(step) * 1e-9 + 1e-12);
        expect(Math.abs(viaNumber - viaDecimal)).toBeLessThanOrEqual(Number(step) * 1.000001);
      }),
    );
  });
});
