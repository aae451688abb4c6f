import { describe, expect, it } from 'vitest';
import { exchangeErrors } from '../exchange-error';
import { fromBinanceCode } from './ccxt-errors';

describe('the refusals the runtime acts on carry their reason', () => {
  it('names a hedge-mode account, a reduce-only exit with nothing to reduce and an order below the minimum', () => {
    const cases = [
      [-4061, "Order's position side does not match user's setting.", 'position_mode'],
      [-2022, 'ReduceOnly Order is rejected.', 'reduce_only_rejected'],
      [-1013, 'Filter failure: NOTIONAL', 'below_minimum'],
      [-1013, 'Filter failure: MIN_NOTIONAL', 'below_minimum'],
      [-1013, 'Filter failure: LOT_SIZE', 'below_minimum'],
    ] as const;
    for (const [code, msg, reason] of cases) {
      expect(fromBinanceCode(code, msg, undefined)).toMatchObject({ kind: 'rejected', code, reason });
    }
  });

  it('leaves other refusals as plain ones', () => {
    expect(fromBinanceCode(-1013, 'Filter failure: PRICE_FILTER', undefined).reason).toBeUndefined();
    expect(
      fromBinanceCode(-2010, 'Account has insufficient balance for requested action.', undefined).reason,
    ).toBeUndefined();
  });

  it('gives the paper exchange’s equivalents the same reasons, and keeps them when the outcome is unknown', () => {
    expect(exchangeErrors.reduceOnly().reason).toBe('reduce_only_rejected');
    expect(exchangeErrors.filter('NOTIONAL').reason).toBe('below_minimum');
    expect(exchangeErrors.filter('LOT_SIZE').reason).toBe('below_minimum');
    expect(exchangeErrors.filter('PRICE_FILTER').reason).toBeUndefined();
    expect(exchangeErrors.outcomeUnknown(exchangeErrors.reduceOnly())).toMatchObject({
      kind: 'unknown',
      reason: 'reduce_only_rejected',
    });
  });
});
