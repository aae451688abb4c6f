import { describe, expect, it } from 'vitest';
import { rangeFilterProblems } from './range-filters';

// Levels 1000, 1500, 2000, 2500, 3000; at 2000 the grid rests buys at 1000 and 1500, sells at 2500 and 3000.
const grid = { lower: 1000, upper: 3000, grids: 4, mode: 'arithmetic' as const };
const rules = { symbol: 'ETHUSDT', tickSize: '0.01' };

describe('a live range grid against the exchange filters', () => {
  it('passes when its four orders fit MAX_NUM_ORDERS and the percent-price band exactly', () => {
    const percentPrice = { bidUp: '5', bidDown: '0.5', askUp: '1.5', askDown: '0.2' };
    expect(rangeFilterProblems(grid, 2000, { ...rules, maxNumOrders: 4, percentPrice }, 'spot')).toEqual([]);
  });

  it('refuses more orders than MAX_NUM_ORDERS, naming both counts', () => {
    expect(rangeFilterProblems(grid, 2000, { ...rules, maxNumOrders: 3 }, 'spot')).toEqual([
      'the grid rests 4 orders on ETHUSDT at once, more than the 3 open orders Binance allows on the symbol (MAX_NUM_ORDERS): use at most 3 grids',
    ]);
  });

  it('refuses levels outside PERCENT_PRICE_BY_SIDE, naming the price to move each end to', () => {
    // Buys down to 2000 × 0.6 = 1200, sells up to 2000 × 1.4 = 2800.
    const percentPrice = { bidUp: '5', bidDown: '0.6', askUp: '1.4', askDown: '0.2' };
    expect(rangeFilterProblems(grid, 2000, { ...rules, percentPrice }, 'spot')).toEqual([
      'the lowest buy at 1000 is below 1200, the lowest buy price Binance accepts for ETHUSDT at 2000 (PERCENT_PRICE_BY_SIDE), 60% of the price: raise the lower price to at least 1200',
      'the highest sell at 3000 is above 2800, the highest sell price Binance accepts for ETHUSDT at 2000 (PERCENT_PRICE_BY_SIDE), 140% of the price: lower the upper price to at most 2800',
    ]);
  });

  it('rounds the suggested bounds to the tick, inward', () => {
    // 2000 × 0.333333 = 666.666, rounded up to the tick: 666.67 (666.66 would still be refused).
    const percentPrice = { bidUp: '5', bidDown: '0.333333', askUp: '5', askDown: '0.2' };
    const low = { lower: 500, upper: 3000, grids: 5, mode: 'arithmetic' as const };
    expect(rangeFilterProblems(low, 2000, { ...rules, percentPrice }, 'spot')[0]).toContain(
      'raise the lower price to at least 666.67',
    );
  });

  it('checks nothing the rules do not carry (the paper exchange)', () => {
    expect(rangeFilterProblems({ ...grid, grids: 200 }, 2000, rules, 'spot')).toEqual([]);
  });
});
