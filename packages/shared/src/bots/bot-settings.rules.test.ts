import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  overbuyGridError,
  profitBookPctError,
  triggerPriceError,
  triggerVsLivePriceErrors,
} from './bot-settings.rules';
import { botKindOf } from './bots.paths';

describe('price triggers against the live price', () => {
  it('asks for a pause price above and a stoploss below the live price, with the spec words', () => {
    expect(triggerVsLivePriceErrors({ pause: 100, stoploss: 100 }, 100)).toEqual({
      pause: 'Pause Price must be greater than the current live price',
      stoploss: 'Stop loss Price must be less than the current live price',
    });
    expect(triggerVsLivePriceErrors({ pause: 100.01, stoploss: 99.99 }, 100)).toEqual({});
    expect(triggerVsLivePriceErrors({ pause: 90, stoploss: null }, 100)).toEqual({
      pause: 'Pause Price must be greater than the current live price',
    });
  });

  it('asks for a restart price below the pause price, live price known or not', () => {
    for (const live of [100, null]) {
      expect(triggerVsLivePriceErrors({ pause: 120, restart: 120, stoploss: null }, live)).toEqual({
        restart: 'Restart Price must be less than the Pause Price',
      });
      expect(triggerVsLivePriceErrors({ pause: 120, restart: 110, stoploss: null }, live)).toEqual({});
    }
    expect(triggerVsLivePriceErrors({ pause: null, restart: 500, stoploss: null }, 100)).toEqual({});
  });

  it('checks nothing against an unknown live price', () => {
    expect(triggerVsLivePriceErrors({ pause: 1, stoploss: 999_999 }, null)).toEqual({});
  });

  it('leaves unset triggers alone', () => {
    expect(triggerVsLivePriceErrors({ pause: null, stoploss: null }, 100)).toEqual({});
  });

  it('accepts exactly the pause prices above and the stoplosses below any live price', () => {
    const price = fc.double({ min: 1e-8, max: 1e7, noNaN: true });
    fc.assert(
      fc.property(price, price, price, (live, pause, stoploss) => {
        const errors = triggerVsLivePriceErrors({ pause, stoploss }, live);
        expect(errors.pause === undefined).toBe(pause > live);
        expect(errors.stoploss === undefined).toBe(stoploss < live);
      }),
    );
  });

  it('takes only positive numbers as prices', () => {
    expect(triggerPriceError(0.0001)).toBeUndefined();
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(triggerPriceError(bad)).toBe('Price must be a positive number.');
    }
  });
});

describe('overbuy grid protection', () => {
  const range = 'Please enter a valid integer between 1 and 9 for Overbuy Grid Protection.';

  it('takes a whole grid from 1 to the grids minus one, as a number or plain digits', () => {
    expect(overbuyGridError(1, 10)).toBeUndefined();
    expect(overbuyGridError(9, 10)).toBeUndefined();
    expect(overbuyGridError(' 5 ', 10)).toBeUndefined();
    for (const bad of [0, 10, 2.5, '', 'abc', '3.0', '1e1', '-2', '10']) {
      expect(overbuyGridError(bad, 10)).toBe(range);
    }
  });

  it('refuses every value when the bot has a single grid', () => {
    expect(overbuyGridError(1, 1)).toBe(
      'Please enter a valid integer between 1 and 0 for Overbuy Grid Protection.',
    );
  });
});

describe('profit book percentage', () => {
  it('takes 1 to 1000 percent', () => {
    expect(profitBookPctError(1)).toBeUndefined();
    expect(profitBookPctError(1000)).toBeUndefined();
    expect(profitBookPctError(0.99)).toBe('Value cannot be negative or less than 1.');
    expect(profitBookPctError(-5)).toBe('Value cannot be negative or less than 1.');
    expect(profitBookPctError(Number.NaN)).toBe('Value cannot be negative or less than 1.');
    expect(profitBookPctError(1000.5)).toBe('Value cannot be more than 1000.');
  });
});

describe('bot kind of a bot type', () => {
  it('reads any spelling of scalping as Scalping and everything else as Multigrid', () => {
    expect(botKindOf('SCALPING')).toBe('scalping');
    expect(botKindOf('scalp')).toBe('scalping');
    expect(botKindOf('Multigrid')).toBe('multigrid');
    expect(botKindOf('')).toBe('multigrid');
    expect(botKindOf(undefined)).toBe('multigrid');
  });
});
