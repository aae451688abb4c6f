import { getMarketRules, money } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { prepareOrder } from './order-rules';

describe('prepareOrder', () => {
  const rules = getMarketRules('ETHUSDT', 'future');
  const exit = {
    market: 'future',
    symbol: 'ETHUSDT',
    side: 'sell',
    type: 'market',
    clientOrderId: 'b-9',
    quantity: '0.001',
  } as const;

  it('refuses a futures order below the minimum notional', () => {
    expect(() => prepareOrder(exit, rules, money(2000))).toThrow('Filter failure: NOTIONAL');
  });

  it('lets a reduce-only futures exit below the minimum notional go out (Binance -4164 exempts it)', () => {
    expect(prepareOrder({ ...exit, reduceOnly: true }, rules, money(2000)).quantity.toFixed()).toBe('0.001');
  });

  it('still refuses a spot sell below the minimum notional', () => {
    const spot = getMarketRules('ETHUSDT', 'spot');
    expect(() =>
      prepareOrder({ ...exit, market: 'spot', quantity: '0.001', reduceOnly: true }, spot, money(2000)),
    ).toThrow('Filter failure: NOTIONAL');
  });
});
