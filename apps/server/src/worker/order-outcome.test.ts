import type { Order } from '@gridbot/exchange';
import { describe, expect, it } from 'vitest';
import { outcomeOf } from './order-outcome';

/** A filled spot market buy of 0.1 ETH at 2000 on Binance, fee as given. */
function filledBuy(fee: string, feeAsset: string): Order {
  return {
    market: 'spot',
    symbol: 'ETHUSDT',
    clientOrderId: 'gb-1',
    exchangeOrderId: '77',
    side: 'buy',
    type: 'market',
    status: 'FILLED',
    price: undefined,
    quantity: '0.1',
    filledQuantity: '0.1',
    filledQuote: '200',
    averagePrice: '2000',
    fee,
    feeAsset,
    createdMs: 1,
    updatedMs: 2,
  };
}

const bnbAt = (price: number) => (asset: string) => (asset === 'BNB' ? price : undefined);

describe('outcomeOf', () => {
  it('books a USDT fee as it is, and a fee taken from the bought coin as a base fee', () => {
    expect(outcomeOf(filledBuy('0.2', 'USDT'), 1, 'ETH', 2000)).toMatchObject({
      kind: 'filled',
      fill: { fee: '0.2', feeAsset: 'quote', qty: '0.1', quote: '200', price: '2000' },
    });
    expect(outcomeOf(filledBuy('0.0001', 'ETH'), 1, 'ETH', 2000)).toMatchObject({
      fill: { fee: '0.0001', feeAsset: 'base' },
    });
  });

  it('values a fee paid in BNB at the last BNB price, so the bot books what the fee cost', () => {
    // 0.00025 BNB at 600 USDT = 0.15 USDT (0.075 % of 200: Binance's BNB discount on the 0.1 % fee).
    expect(outcomeOf(filledBuy('0.00025', 'BNB'), 1, 'ETH', 2000, bnbAt(600))).toMatchObject({
      fill: { fee: '0.15', feeAsset: 'quote' },
    });
  });

  it('counts a fee in a coin without a known price as 0 rather than failing the fill', () => {
    expect(outcomeOf(filledBuy('0.00025', 'BNB'), 1, 'ETH', 2000)).toMatchObject({
      fill: { fee: '0', feeAsset: 'quote' },
    });
  });

  it('reads an order still open as open, and a final order with nothing filled as failed', () => {
    expect(
      outcomeOf({ ...filledBuy('0', 'USDT'), status: 'NEW', filledQuantity: '0' }, 1, 'ETH', 2000),
    ).toEqual({
      kind: 'open',
    });
    expect(
      outcomeOf({ ...filledBuy('0', 'USDT'), status: 'CANCELED', filledQuantity: '0' }, 1, 'ETH', 2000),
    ).toEqual({ kind: 'failed', reason: 'order canceled' });
  });
});
