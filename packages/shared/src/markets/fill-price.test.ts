import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { money } from '../money/money';
import { fillPriceAgainst, marketFillPrice } from './fill-price';

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

describe('market fill price of an engine event (docs/trading-rules.md §2.5)', () => {
  it('fills a buy level at the level rounded up, not at the first tick below it where it was seen', () => {
    // The buy level 3295.4537 is seen at 3295.45; the order crosses the spread and pays 3295.46.
    expect(marketFillPrice('3295.45', 'buy', '0.01', 3295.4537).toFixed()).toBe('3295.46');
  });

  it('fills a take-profit level at the level rounded down, not at the first tick above it', () => {
    expect(marketFillPrice('3454.64', 'sell', '0.01', 3454.638).toFixed()).toBe('3454.63');
  });

  it('fills at the level where the walked line crossed it, whatever the feed quotes at the line end', () => {
    // A trailing take-profit at 3450.004 on a line falling to 3440: the path crossed the level on the way.
    expect(marketFillPrice('3440', 'sell', '0.01', 3450.004).toFixed()).toBe('3450');
    // A trailing buy's rebound level 3296.051 on a line rising to 3310.
    expect(marketFillPrice('3310', 'buy', '0.01', 3296.051).toFixed()).toBe('3296.06');
  });

  it('fills an order without an event at the feed price rounded against the bot', () => {
    expect(marketFillPrice('100.123', 'buy', '0.01').toFixed()).toBe('100.13');
    expect(marketFillPrice('100.127', 'sell', '0.01').toFixed()).toBe('100.12');
  });
});
