import { rebuyOrder } from '@gridbot/engine';
import { getMarketRules, Money, botMessages as m, money } from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import type { AccountConn } from '../../lib/account-lock';
import { HttpError } from '../../lib/http-error';
import { engineStateOf } from './bot-summary';
import type * as repo from './bots.repo';
import { freeUsdt } from './start-bot.service';

/**
 * Refuses a re-buy of coins sold outside the platform that the free spot USDT cannot pay (what running bots
 * and cycles hold, this one's unspent investment included, is not free), naming the amount it needs: the
 * re-buy the runner would order (`rebuyOrder`, the missing quantity rounded up to the step) at the live
 * price. Checked before the choice is accepted, so a refused re-buy never pauses the bot again. Answers the
 * USDT to set aside for it until it is booked (null without an order or a price yet); `conn` is the
 * connection of the account's lock the choice is queued under.
 */
export async function assertRebuyAffordable(
  deps: Pick<AppDeps, 'db' | 'feed' | 'exchanges' | 'secrets' | 'state'>,
  bot: repo.BotRow,
  conn: AccountConn = deps.db,
): Promise<string | null> {
  const { exchange, free } = await freeUsdt(deps, bot.userId, 'spot', conn);
  const asset = bot.symbol.replace(/USDT$/, '');
  const [balances, rules] = await Promise.all([
    exchange.balances('spot'),
    exchange.marketRules(bot.symbol, 'spot').catch(() => getMarketRules(bot.symbol, 'spot')),
  ]);
  const coin = balances.find((b) => b.asset === asset);
  const held = coin ? money(coin.free).plus(coin.locked) : money(0);
  const last = deps.feed.lastPrice(bot.symbol, 'spot');
  // Without a price yet the runner, which re-buys at its last price, pauses the bot again if it cannot.
  if (last === undefined) return null;
  const order = rebuyOrder(engineStateOf(bot), held.toFixed(), Number(last), rules.stepSize);
  if (order === null) return null;
  if (money(free).gte(order.quoteAmount)) return money(order.quoteAmount).toFixed();
  throw new HttpError(
    400,
    m.rebuyUnaffordable(
      order.qty,
      asset,
      money(order.quoteAmount).toFixed(2, Money.ROUND_UP),
      money(free).toFixed(2, Money.ROUND_DOWN),
    ),
  );
}
