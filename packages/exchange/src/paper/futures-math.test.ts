/**
 * The paper exchange's futures position after the fills of the engine's worked example
 * (packages/engine/src/strategies/futures-position.test.ts): the same liquidation prices, since both
 * use the one shared function with Binance's BTCUSDT brackets. Then a short, worked by hand with the same
 * brackets (docs/trading-rules.md §2.2; Binance isolated one-way liquidation price, position side negative).
 */
import { money } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import {
  increasePosition,
  initialMargin,
  liquidationReached,
  positionFunding,
  reducePosition,
} from './futures-math';
import type { PaperPositionRow, PositionSide } from './paper-store';

const BASE = { userId: 'u1', symbol: 'BTCUSDT', leverage: 10, maintMarginRate: 0.004, tsMs: 0 };

function open(
  side: PositionSide,
  current: PaperPositionRow | undefined,
  qty: string,
  price: string,
): PaperPositionRow {
  const notional = money(qty).times(price);
  return {
    ...increasePosition(current, { ...BASE, side }, money(qty), money(price), initialMargin(notional, 10)),
    version: (current?.version ?? 0) + 1,
  };
}

describe('paper futures position: buy, partial sell, rebuy', () => {
  it('has the liquidation prices the engine computes for the same fills', () => {
    const first = open('long', undefined, '0.083', '60000');
    expect(first.liquidationPrice).toBe('54216.86746988');
    const second = open('long', first, '0.087', '57000');
    expect(second.liquidationPrice).toBe('52829.55350816');
    const sold = reducePosition(second, money('0.087'), money('59850'), 0);
    expect(sold.next).toMatchObject({
      side: 'long',
      quantity: '0.083',
      entryNotional: '4852.57058824',
      isolatedMargin: '485.25705882',
      liquidationPrice: '52829.55350825',
    });
    expect(sold.marginReleased.toFixed()).toBe('508.64294118');
    const rebought = open('long', { ...sold.next!, version: 2 }, '0.087', '57000');
    expect(rebought.liquidationPrice).toBe('52152.21786807');
  });
});

describe('paper futures short: sell, sell more, partial buy back, close', () => {
  // BTCUSDT brackets: notional < 50,000 → m 0.4 %, cum 0; 50,000 – 600,000 → m 0.5 %, cum 50.
  // A short's liquidation price: P = (Q × E + M + cum) / (Q × (1 + m)), rounded down to 8 decimals.
  it('opens at 60,000: margin 6,000 at 10×, liquidated from (60,000 + 6,000 + 50) / 1.005 = 65,721.39303482', () => {
    const short = open('short', undefined, '1', '60000');
    expect(short).toMatchObject({
      side: 'short',
      quantity: '1',
      entryNotional: '60000',
      isolatedMargin: '6000',
      liquidationPrice: '65721.39303482',
    });
  });

  it('grows by 1 at 62,000: entry 61,000, margin 12,200, liq (122,000 + 12,200 + 50) / 2.01 = 66,791.04477611', () => {
    const grown = open('short', open('short', undefined, '1', '60000'), '1', '62000');
    expect(grown).toMatchObject({
      quantity: '2',
      entryNotional: '122000',
      isolatedMargin: '12200',
      liquidationPrice: '66791.04477611',
    });
  });

  it('buys back 0.5 at 59,000: 1/4 of margin (3,050) released, PnL 0.5 × (61,000 − 59,000) = 1,000', () => {
    const grown = open('short', open('short', undefined, '1', '60000'), '1', '62000');
    const reduced = reducePosition(grown, money('0.5'), money('59000'), 5);
    expect(reduced.marginReleased.toFixed()).toBe('3050');
    expect(reduced.realizedPnl.toFixed()).toBe('1000');
    // The entry stays 61,000: 1.5 × 61,000 = 91,500; liq (91,500 + 9,150 + 50) / (1.5 × 1.005) = 66,799.33665008.
    expect(reduced.next).toMatchObject({
      side: 'short',
      quantity: '1.5',
      entryNotional: '91500',
      isolatedMargin: '9150',
      liquidationPrice: '66799.33665008',
      updatedMs: 5,
    });
    // Closing the rest at 63,000 loses 1.5 × (61,000 − 63,000) = −3,000 and releases all 9,150.
    const closed = reducePosition({ ...reduced.next!, version: 3 }, money('1.5'), money('63000'), 6);
    expect(closed.next).toBeNull();
    expect(closed.marginReleased.toFixed()).toBe('9150');
    expect(closed.realizedPnl.toFixed()).toBe('-3000');
  });

  it('a short is liquidated at or above its price, a long at or below it', () => {
    const short = { side: 'short' as const, liquidationPrice: '65721.39303482' };
    expect(liquidationReached(short, money('65721.39303481'))).toBe(false);
    expect(liquidationReached(short, money('65721.39303482'))).toBe(true);
    expect(liquidationReached(short, money('50000'))).toBe(false);
    const long = { side: 'long' as const, liquidationPrice: '54216.86746988' };
    expect(liquidationReached(long, money('54216.86746989'))).toBe(false);
    expect(liquidationReached(long, money('54216.86746988'))).toBe(true);
    expect(liquidationReached(long, money('70000'))).toBe(false);
  });
});

describe('funding of a position', () => {
  // 1.5 BTC at a mark price of 60,000 with a rate of 0.01 %: 1.5 × 60,000 × 0.0001 = 9 USDT.
  it('a short receives funding when the rate is positive and a long pays it', () => {
    expect(
      positionFunding({ side: 'short', quantity: '1.5' }, money('60000'), money('0.0001')).toFixed(),
    ).toBe('9');
    expect(
      positionFunding({ side: 'long', quantity: '1.5' }, money('60000'), money('0.0001')).toFixed(),
    ).toBe('-9');
  });

  it('a short pays funding when the rate is negative and a long receives it', () => {
    expect(
      positionFunding({ side: 'short', quantity: '1.5' }, money('60000'), money('-0.0001')).toFixed(),
    ).toBe('-9');
    expect(
      positionFunding({ side: 'long', quantity: '1.5' }, money('60000'), money('-0.0001')).toFixed(),
    ).toBe('9');
  });
});
