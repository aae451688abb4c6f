import type { Exchange } from '@gridbot/exchange';
import {
  type CommittedFunds,
  type HeldUsdt,
  heldByBotsMessage,
  heldUsdtParts,
  walletMessages as m,
  money,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { botsHolding, committedFunds, freePart } from '../bots';
import { userExchange } from '../exchange';
import { asUserError } from './exchange-refusal';

const usdtFree = async (exchange: Exchange, wallet: 'spot' | 'future') =>
  (await exchange.balances(wallet)).find((b) => b.asset === 'USDT')?.free ?? '0';

/**
 * Moves free USDT between spot and futures; an amount above the source's free part is refused up front. The
 * check and the move are one step of the account's queue (docs/security.md "One account, one queue"): a
 * parallel transfer, swap or start checks the balance this one leaves.
 */
export async function transferUsdt(
  deps: Pick<AppDeps, 'db' | 'exchanges' | 'secrets' | 'state'>,
  userId: string,
  direction: 'spot_to_future' | 'future_to_spot',
  amount: string,
) {
  const exchange = await userExchange(deps, userId);
  return deps.state.accounts.run(userId, async (conn) => {
    const source = direction === 'spot_to_future' ? 'spot' : 'future';
    const [balance, committed] = await Promise.all([
      usdtFree(exchange, source),
      committedFunds(deps, userId, conn),
    ]);
    const reserved = source === 'spot' ? committed.spotUsdt : committed.futuresUsdt;
    const transferable = freePart(balance, reserved);
    if (money(amount).gt(transferable)) {
      const heldBy = heldUsdtParts(await heldUsdtOf(exchange, committed, source));
      throw new HttpError(400, m.amountExceedsTransferable, { transferable, heldBy });
    }
    try {
      await exchange.transfer(direction, amount);
    } catch (error) {
      throw asUserError(error, m.transferFailed);
    }
    return { success: true, message: m.transferSuccessful };
  });
}

/** What holds the wallet's USDT that cannot be moved: bots' reserves, and on futures the positions' margin. */
async function heldUsdtOf(
  exchange: Exchange,
  committed: CommittedFunds,
  wallet: 'spot' | 'future',
): Promise<HeldUsdt[]> {
  const category = wallet === 'future' ? 'Future' : 'Spot';
  const reserves: HeldUsdt[] = committed.bots
    .filter((b) => b.category === category)
    .map((b) => ({ kind: 'bot', name: b.name, usdt: b.usdt }));
  if (wallet === 'spot') return reserves;
  const positions = await exchange.positions();
  return [
    ...reserves,
    ...positions.map((p): HeldUsdt => ({ kind: 'position', symbol: p.symbol, usdt: p.isolatedMargin })),
  ];
}

/**
 * Sells `amount` of a spot asset for USDT at market (Swap to USDT). Coins a running bot bought stay the
 * bot's: a swap reaching into them is refused with the bots named. Check and sale are one step of the
 * account's queue, as a transfer's.
 */
export async function swapToUsdt(
  deps: Pick<AppDeps, 'db' | 'exchanges' | 'secrets' | 'state'>,
  userId: string,
  asset: string,
  amount: string,
) {
  const exchange = await userExchange(deps, userId);
  return deps.state.accounts.run(userId, async (conn) => {
    const [balances, committed] = await Promise.all([
      exchange.balances('spot'),
      committedFunds(deps, userId, conn),
    ]);
    const held = balances.find((b) => b.asset === asset)?.free ?? '0';
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
  });
}
