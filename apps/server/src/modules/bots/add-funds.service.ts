import { startCostWithFees, validateGridStart } from '@gridbot/engine';
import { DEFAULT_FEE_PCT, getMarketRules, botMessages as m, money } from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { queueAndAwait } from './bot-commands.service';
import { gridState, marketOf } from './bot-summary';
import * as repo from './bots.repo';
import { freeUsdt } from './start-bot.service';

export interface AddFundsAnswer {
  success: true;
  message: string;
  /** The bot's investment with the funds added, in USDT. */
  investment: string;
}

/**
 * Adds `amount` USDT (futures: margin) to a running grid bot, checked as a start is
 * (docs/spec/01-core-screens.md §5, docs/trading-rules.md §2.1): each grid's order at its new allotment must
 * reach the exchange's minimum at the live price, and the wallet's free USDT (less what running bots hold)
 * must pay the amount and, on futures, the fee on its notional. The check, the raise of the bot's
 * investment (what the bot commits grows at once) and the queued command are one step of the account's lock
 * (docs/security.md "One account, one queue"): a transfer or start after it finds the USDT taken. The answer
 * comes once the bot has applied the addition; one it refuses (it was stopped meanwhile) is taken back.
 */
export async function addFundsToBot(
  deps: Pick<AppDeps, 'db' | 'feed' | 'exchanges' | 'secrets' | 'botControl' | 'state'>,
  bot: repo.BotRow,
  amount: number,
): Promise<AddFundsAnswer> {
  if (bot.status === 'Stopped') throw new HttpError(400, m.botNotRunning);
  if (bot.status === 'Stopping') throw new HttpError(400, m.addFundsStopping);
  const state = gridState(bot);
  const market = marketOf(bot);
  const leverage = market === 'future' ? bot.leverage : 1;
  const total = money(bot.investment).plus(amount);
  const last = deps.feed.lastPrice(bot.symbol, market);
  const problems = validateGridStart(
    state.params,
    total.toNumber(),
    getMarketRules(bot.symbol, market),
    leverage,
    last === undefined ? null : Number(last),
  );
  if (problems.length > 0) throw new HttpError(400, problems.map((p) => p.message).join(' '));

  const added = money(amount).toFixed();
  let investment = total.toFixed();
  const waited = await queueAndAwait(deps, bot.id, async () => {
    const id = await deps.state.accounts.run(bot.userId, async (conn) => {
      const { free } = await freeUsdt(deps, bot.userId, market, conn);
      const needed = startCostWithFees(amount, market, leverage, DEFAULT_FEE_PCT[market]);
      if (money(free).lt(needed)) {
        throw new HttpError(
          400,
          `${m.insufficientBalance}: ${money(free).toFixed(2)} USDT free in your ${market === 'spot' ? 'spot' : 'futures'} wallet; adding ${money(amount).toFixed(2)} USDT needs ${money(needed).toFixed(2)} USDT including fees.`,
        );
      }
      const raised = await repo.raiseInvestment(conn, bot.id, added);
      if (raised === null) throw new HttpError(400, m.botNotRunning);
      investment = raised;
      return repo.queueCommand(conn, bot.id, 'add_funds', { amount });
    });
    // Once the lock is let go and its writes are committed: the runtime reads the command it is told of.
    await deps.botControl.notify(bot.id);
    return id;
  });
  switch (waited.status) {
    case 'done':
    case 'applied':
      return { success: true, message: m.fundsAdded(added, money(investment).toFixed()), investment };
    case 'failed':
      await deps.state.accounts.run(bot.userId, (conn) => repo.lowerInvestment(conn, bot.id, added));
      throw new HttpError(400, m.addFundsFailed);
    case 'queued':
      throw new HttpError(
        503,
        `${m.addFundsFailed}: the bot did not answer in time; it will apply the change when it does.`,
      );
  }
}
