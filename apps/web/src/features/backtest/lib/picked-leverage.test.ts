import { botMessages } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { pickedLeverage } from './picked-leverage';

describe("the backtest panel's leverage", () => {
  it('takes a whole number from 1x to 10x', () => {
    expect(pickedLeverage('1')).toEqual({ ok: true, leverage: 1 });
    expect(pickedLeverage(' 5 ')).toEqual({ ok: true, leverage: 5 });
    expect(pickedLeverage('10')).toEqual({ ok: true, leverage: 10 });
  });

  it("refuses others with Start Bot's messages", () => {
    expect(pickedLeverage('')).toEqual({ ok: false, message: botMessages.leverageRequired });
    expect(pickedLeverage('0')).toEqual({ ok: false, message: botMessages.leverageMin });
    expect(pickedLeverage('11')).toEqual({ ok: false, message: botMessages.leverageMax });
    expect(pickedLeverage('2.5')).toEqual({ ok: false, message: botMessages.leverageWhole });
    expect(pickedLeverage('x')).toEqual({ ok: false, message: botMessages.leverageWhole });
  });
});
