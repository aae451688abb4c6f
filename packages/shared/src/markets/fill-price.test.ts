import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { money } from '../money/money';
import { fillPriceAgainst } from './fill-price';

describe('fill price rounded to the tick against the bot', () => {
  it('rounds a buy up and a sell down', () => {
    expect(fillPriceAgainst(100.123, 'buy', '0.01').toFixed()).toBe('100.13');
    expect(fillPriceAgainst(100.127, 'sell', '0.01').toFixed()).toBe('100.12');
  });

  it('keeps a price within 1e-9 of its size from a tick on that tick', () => {
    // 100 × (1 − 2/100) in binary floating point is 97.99999999999999.
    expect(fillPriceAgainst(100 * (1 - 2 / 100), 'buy', '0.01').toFixed()).toBe('98');
    expect(fillPriceAgainst(98.00000000001, 'sell', '0.01').toFixed()).toBe('98');
    expect(fillPriceAgainst(98.0000001, 'sell', '0.01').toFixed()).toBe('98');
    expect(fillPriceAgainst(98.0000001, 'buy', '0.01').toFixed()).toBe('98.01');
  });

  it('moves the price against the bot by the slippage before rounding', () => {
    expect(fillPriceAgainst(100, 'buy', '0.01', 10).toFixed()).toBe('100.1');
    expect(fillPriceAgainst(100, 'sell', '0.01', 10).toFixed()).toBe('99.9');
  });

  it('property: the fill is on the tick, never better for the bot, and less than one tick worse', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 1e6, noNaN: true }),
        fc.constantFrom('0.1', '0.01', '0.0001', '0.00001'),
        fc.constantFrom('buy' as const, 'sell' as const),
        (price, tick, side) => {
          const fill = fillPriceAgainst(price, side, tick);
          expect(fill.dividedBy(tick).isInteger()).toBe(true);
          const diff = fill.minus(price);
          const slack = money(price).times(1e-9);
          if (side === 'buy') expect(diff.gte(slack.negated())).toBe(true);
          else if (money(price).gte(tick)) expect(diff.lte(slack)).toBe(true);
          if (money(price).gte(tick)) expect(diff.abs().lt(money(tick).plus(slack))).toBe(true);
        },
      ),
    );
  });
});
