import { type Exchange, ExchangeError } from '@gridbot/exchange';
import { HEDGE_MODE_MESSAGE } from '@gridbot/exchange/binance';
import { describe, expect, it } from 'vitest';
import { setUpFutures } from './futures-setup';

const refusing = (error: Error) =>
  ({ setLeverage: async () => Promise.reject(error) }) as unknown as Exchange;

describe('setUpFutures', () => {
  it('answers a hedge-mode account with the clear message as a 400 at start', async () => {
    const hedge = refusing(new ExchangeError('rejected', -4061, HEDGE_MODE_MESSAGE));
    await expect(setUpFutures(hedge, 'BTCUSDT', 3)).rejects.toMatchObject({
      statusCode: 400,
      message: HEDGE_MODE_MESSAGE,
    });
  });

  it('asks to try again when Binance does not answer', async () => {
    const silent = refusing(
      new ExchangeError('retryable', -1007, 'No answer from Binance; try again later.'),
    );
    await expect(setUpFutures(silent, 'BTCUSDT', 3)).rejects.toMatchObject({ statusCode: 503 });
  });
});
