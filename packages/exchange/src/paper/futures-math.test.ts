/**
 * The paper exchange's position after the fills of the engine's worked example
 * (packages/engine/src/strategies/futures-position.test.ts): the same liquidation prices, since both
 * use the one shared function with Binance's BTCUSDT brackets.
 */
import { money } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { increaseLong, initialMargin, reduceLong } from './futures-math';
import type { PaperPositionRow } from './paper-store';

const BASE = { userId: 'u1', symbol: 'BTCUSDT', leverage: 10, maintMarginRate: 0.004, tsMs: 0 };

function buy(current: PaperPositionRow | undefined, qty: string, price: string): PaperPositionRow {
  const notional = money(qty).times(price);
  return {
    ...increaseLong(current, BASE, money(qty), money(price), initialMargin(notional, 10)),
    version: 1,
  };
}

describe('paper futures position: buy, partial sell, rebuy', () => {
  it('has the liquidation prices the engine computes for the same fills', () => {
    const first = buy(undefined, '0.083', '60000');
    expect(first.liquidationPrice).toBe('54216.86746988');
    const second = buy(first, '0.087', '57000');
    expect(second.liquidationPrice).toBe('52829.55350816');
    const sold = reduceLong(second, money('0.087'), money('59850'), 0);
    expect(sold.next).toMatchObject({
      quantity: '0.083',
      entryNotional: '4852.57058824',
      isolatedMargin: '485.25705882',
      liquidationPrice: '52829.55350825',
    });
    expect(sold.marginReleased.toFixed()).toBe('508.64294118');
    const rebought = buy({ ...sold.next!, version: 2 }, '0.087', '57000');
    expect(rebought.liquidationPrice).toBe('52152.21786807');
  });
});
