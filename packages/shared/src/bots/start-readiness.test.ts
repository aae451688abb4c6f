import { describe, expect, it } from 'vitest';
import { botMessages } from './bots.messages';
import { roundTripFeePct, takeProfitFeeWarning } from './start-readiness';

describe('take-profit fee warning', () => {
  it('flags the grids whose take-profit is below the round-trip fee and shows the fee', () => {
    expect(roundTripFeePct('spot')).toBe(0.2);
    expect(roundTripFeePct('future')).toBe(0.1);
    expect(takeProfitFeeWarning([0.02], 'spot')).toBe(
      'The take-profit is below the round-trip fee of 0.2% on spot (0.1% per buy and per sell): such trades lose money.',
    );
    expect(takeProfitFeeWarning([1.2, 0.15, 0.05], 'spot')).toMatch(
      /^Take-profit of grid 2, 3 is below .* 0\.2%/,
    );
    expect(takeProfitFeeWarning([0.15], 'future')).toBeNull();
    expect(takeProfitFeeWarning([0.2, 1.2], 'spot')).toBeNull();
  });
});

describe('amount minimum message', () => {
  it('reads as a dollar amount like the grid rule', () => {
    expect(botMessages.amountMin(100)).toBe('Amount must be greater than or equal to $100.');
  });
});
