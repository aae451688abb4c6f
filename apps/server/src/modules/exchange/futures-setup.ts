import { type Exchange, isExchangeError } from '@gridbot/exchange';
import { HttpError } from '../../lib/http-error';

/**
 * Isolated margin and leverage for a futures start. Binance's refusals reach the user in their own words
 * (a hedge-mode account: switch to One-way Mode; a leverage the symbol does not allow) instead of a 500;
 * no answer from Binance asks the user to try again.
 */
export async function setUpFutures(exchange: Exchange, symbol: string, leverage: number): Promise<void> {
  try {
    await exchange.setLeverage(symbol, leverage);
  } catch (error) {
    if (!isExchangeError(error) || error.kind === 'fatal') throw error;
    if (error.kind === 'rejected') throw new HttpError(400, error.userMessage);
    throw new HttpError(
      503,
      'Binance did not answer while setting up the futures position. Please try again.',
    );
  }
}
