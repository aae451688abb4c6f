import { type Exchange, isExchangeError } from '@gridbot/exchange';
import { walletMessages as m, money } from '@gridbot/shared';
import { HttpError } from '../../lib/http-error';

const usdtFree = async (exchange: Exchange, wallet: 'spot' | 'future') =>
  (await exchange.balances(wallet)).find((b) => b.asset === 'USDT')?.free ?? '0';

/** Spot and futures USDT, the figures of the Wallet Dashboard cards (spec 02). */
export async function usdtBalances(exchange: Exchange) {
  const { spot, future: futures } = await exchange.usdtFree();
  return { spot, futures, total: money(spot).plus(futures).toFixed() };
}

/** Moves USDT between spot and futures; an amount above the source's free USDT is refused up front. */
export async function transferUsdt(
  exchange: Exchange,
  direction: 'spot_to_future' | 'future_to_spot',
  amount: string,
) {
  const source = direction === 'spot_to_future' ? 'spot' : 'future';
  if (money(amount).gt(await usdtFree(exchange, source)))
    throw new HttpError(400, m.amountExceedsTransferable);
  try {
    await exchange.transfer(direction, amount);
  } catch (error) {
    throw asUserError(error, m.transferFailed);
  }
  return { success: true, message: m.transferSuccessful };
}

/** Sells `amount` of a spot asset for USDT at market (Swap to USDT). */
export async function swapToUsdt(exchange: Exchange, asset: string, amount: string) {
  const held = (await exchange.balances('spot')).find((b) => b.asset === asset)?.free ?? '0';
  if (money(amount).gt(held)) throw new HttpError(400, m.swapInvalidAmount);
  try {
    const result = await exchange.convertToUsdt(asset, amount);
    return { success: true, message: m.swapSuccessful, result };
  } catch (error) {
    throw asUserError(error, m.swapFailed);
  }
}

/** An exchange refusal becomes a 400 with its own words; anything else stays an error for the log. */
function asUserError(error: unknown, fallback: string): unknown {
  if (!isExchangeError(error)) return error;
  if (error.kind === 'fatal') return new HttpError(400, m.invalidKeys);
  if (error.kind === 'retryable' || error.kind === 'unknown')
    return new HttpError(503, `${fallback}: the exchange did not answer. Please try again.`);
  return new HttpError(400, `${fallback}: ${error.userMessage}`);
}
