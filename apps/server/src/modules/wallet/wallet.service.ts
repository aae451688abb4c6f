import { type Exchange, isExchangeError } from '@gridbot/exchange';
import { type CommittedFunds, heldByBotsMessage, walletMessages as m, money } from '@gridbot/shared';
import { HttpError } from '../../lib/http-error';
import { botsHolding, freePart } from '../bots';

const usdtFree = async (exchange: Exchange, wallet: 'spot' | 'future') =>
  (await exchange.balances(wallet)).find((b) => b.asset === 'USDT')?.free ?? '0';

/** Moves free USDT between spot and futures; an amount above the source's free part is refused up front. */
export async function transferUsdt(
  exchange: Exchange,
  direction: 'spot_to_future' | 'future_to_spot',
  amount: string,
  committed: CommittedFunds,
) {
  const source = direction === 'spot_to_future' ? 'spot' : 'future';
  const reserved = source === 'spot' ? committed.spotUsdt : committed.futuresUsdt;
  if (money(amount).gt(freePart(await usdtFree(exchange, source), reserved)))
    throw new HttpError(400, m.amountExceedsTransferable);
  try {
    await exchange.transfer(direction, amount);
  } catch (error) {
    throw asUserError(error, m.transferFailed);
  }
  return { success: true, message: m.transferSuccessful };
}

/**
 * Sells `amount` of a spot asset for USDT at market (Swap to USDT). Coins a running bot bought stay the
 * bot's: a swap reaching into them is refused with the bots named.
 */
export async function swapToUsdt(
  exchange: Exchange,
  asset: string,
  amount: string,
  committed: CommittedFunds,
) {
  const held = (await exchange.balances('spot')).find((b) => b.asset === asset)?.free ?? '0';
  if (money(amount).gt(held)) throw new HttpError(400, m.swapInvalidAmount);
  const free = freePart(held, committed.coins[asset]);
  if (money(amount).gt(free))
    throw new HttpError(400, heldByBotsMessage(asset, botsHolding(committed, asset), free));
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
