import type { Db, Tx } from '@gridbot/db';
import { type Exchange, isExchangeError, type Order } from '@gridbot/exchange';
import {
  type CancelOrderInput,
  openOrderMessages as m,
  type OpenOrderView,
  orderOfRunningBotMessage,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { botIdOfClientOrderId, botLabel } from '../bots';
import { userExchange } from '../exchange';
import { asUserError } from './exchange-refusal';
import { botsOfUser, type OrderBotRow } from './open-orders.repo';

const RUNNING = new Set(['Live', 'Pause', 'Stopping']);

/** The user's bots named by these client order ids, by id; an id of another user's bot names nobody. */
async function ownersOf(db: Db | Tx, userId: string, clientOrderIds: readonly string[]) {
  const ids = new Set<string>();
  for (const cid of clientOrderIds) {
    const id = botIdOfClientOrderId(cid);
    if (id) ids.add(id);
  }
  const rows = await botsOfUser(db, userId, [...ids]);
  return new Map(rows.map((b) => [b.id, b]));
}

function toView(order: Order, owner: OrderBotRow | undefined): OpenOrderView {
  return {
    market: order.market,
    symbol: order.symbol,
    clientOrderId: order.clientOrderId,
    side: order.side,
    price: order.price ?? null,
    quantity: order.quantity,
    filledQuantity: order.filledQuantity,
    createdMs: order.createdMs,
    bot: owner ? { botId: owner.id, name: botLabel(owner), kind: owner.botType, status: owner.status } : null,
  };
}

/**
 * Every open order of the user's exchange account, spot and futures, newest first, each with the bot it
 * belongs to. One call per market without a symbol (every adapter and the paper store answer for all
 * pairs at once): an order placed outside the platform may be on any pair, and asking pair by pair would
 * cost 22 calls or more on each 10 s poll.
 */
export async function listOpenOrders(deps: AppDeps, userId: string, exchange: Exchange) {
  const [spot, future] = await Promise.all([exchange.openOrders('spot'), exchange.openOrders('future')]);
  const orders = [...spot, ...future];
  const owners = await ownersOf(
    deps.db,
    userId,
    orders.map((o) => o.clientOrderId),
  );
  return orders
    .map((o) => toView(o, owners.get(botIdOfClientOrderId(o.clientOrderId) ?? '')))
    .sort((a, b) => b.createdMs - a.createdMs || a.symbol.localeCompare(b.symbol));
}

const unknownOrder = (error: unknown) => isExchangeError(error) && error.code === -2011;

/**
 * Cancels one open order that no running bot rests: a running bot's order is refused, the bot would wait for
 * a fill that cannot come; stopping the bot cancels its orders. An id the account does not hold (another
 * user's order included: each user has an account of their own) is not found. One step of the account's
 * queue (docs/security.md "One account, one queue"), so the bot cannot start meanwhile.
 */
export async function cancelOpenOrder(deps: AppDeps, userId: string, input: CancelOrderInput) {
  const { market, symbol, clientOrderId } = input;
  const exchange = await userExchange(deps, userId);
  return deps.state.accounts.run(userId, async (conn) => {
    const owner = (await ownersOf(conn, userId, [clientOrderId])).values().next().value;
    if (owner && RUNNING.has(owner.status))
      throw new HttpError(409, orderOfRunningBotMessage(symbol, botLabel(owner)));
    try {
      await exchange.cancelOrder(market, symbol, clientOrderId);
      return { success: true, message: m.orderCanceled };
    } catch (error) {
      if (unknownOrder(error)) throw new HttpError(404, m.noOrder);
      throw asUserError(error, m.cancelFailed);
    }
  });
}
