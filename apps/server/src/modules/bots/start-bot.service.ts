import {
  createGridBot,
  type GridParams,
  parseStrategy,
  startCostWithFees,
  validateGridStart,
} from '@gridbot/engine';
import { isExchangeError } from '@gridbot/exchange';
import {
  DEFAULT_FEE_PCT,
  DEFAULT_MINIMUM_BOT_AMOUNT,
  findMaintBrackets,
  firstTriggerError,
  getMarketRules,
  botMessages as m,
  minimumForGrids,
  money,
  type StartBotParsed,
  type StrategyParams,
  triggerVsLivePriceErrors,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { platformDepsOf } from '../../config/platform-runtime';
import type { AccountConn } from '../../lib/account-lock';
import { HttpError } from '../../lib/http-error';
import { platformCredit } from '../credit';
import { setUpFutures, userExchange } from '../exchange';
import { findOwnStrategy, findSystemStrategy } from '../strategies';
import * as repo from './bots.repo';
import { committedFunds, freePart, reservedFrom } from './committed-funds';

type BotType = 'multigrid' | 'scalping';

async function findStrategy(deps: Pick<AppDeps, 'db'>, userId: string, type: BotType, name: string) {
  const row =
    (await findOwnStrategy(deps.db, userId, type, name)) ?? (await findSystemStrategy(deps.db, type, name));
  if (!row) throw new HttpError(400, m.strategyNotFound);
  const parsed = parseStrategy({ ...row.params, type, strategy_name: row.name });
  if (!parsed.ok) throw new HttpError(400, `${m.strategyNotFound} ${parsed.errors[0] ?? ''}`.trim());
  return { row, params: parsed.value as GridParams };
}

/**
 * The free USDT of the wallet the bot trades from (futures: margin in the futures wallet), less what
 * running bots and cycles hold there. What commits the funds it finds reads them inside the account's lock,
 * on its connection (`conn`, lib/account-lock.ts).
 */
export async function freeUsdt(
  deps: Pick<AppDeps, 'db' | 'exchanges' | 'secrets' | 'state'>,
  userId: string,
  market: 'spot' | 'future',
  conn: AccountConn = deps.db,
) {
  const exchange = await userExchange(deps, userId);
  try {
    const [balances, committed] = await Promise.all([
      exchange.balances(market),
      committedFunds(deps, userId, conn),
    ]);
    const balance = balances.find((b) => b.asset === 'USDT')?.free ?? '0';
    return { exchange, free: freePart(balance, reservedFrom(exchange, committed, market)) };
  } catch (error) {
    if (isExchangeError(error) && error.kind === 'fatal') throw new HttpError(500, m.invalidKeys);
    throw error;
  }
}

/** The engine state a new bot starts from, with the settings of the start form. */
function initialState(
  deps: Pick<AppDeps, 'clock'>,
  input: StartBotParsed,
  params: GridParams,
  leverage: number,
) {
  const market = input.category === 'Future' ? 'future' : 'spot';
  return createGridBot({
    params,
    investment: input.amount,
    market,
    leverage,
    startTimeMs: deps.clock.now().getTime(),
    maintMarginRate: getMarketRules(input.selectPair, market).maintMarginRate,
    maintBrackets: findMaintBrackets(input.selectPair),
    settings: {
      pausePrice: input.sellPausePrice ?? null,
      restartPrice: input.restartPrice ?? null,
      stoplossPrice: input.stoplossPrice ?? null,
      profitBookPct: input.profitbookat ?? null,
    },
  });
}

/**
 * Starts a Multigrid or Scalping bot (docs/spec/01-core-screens.md Start bot): checks every rule of docs/spec/01-core-screens.md §5 and the
 * exchange's minimum per grid (docs/trading-rules.md §2.1), the balance and one running bot per pair and category, then
 * writes the bot with a snapshot of its strategy and hands it to the runtime.
 */
export async function startBot(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'feed' | 'exchanges' | 'secrets' | 'botControl' | 'state'>,
  userId: string,
  type: BotType,
  input: StartBotParsed,
) {
  // Profit limit (docs/product.md §5): at zero availableCredit nothing new starts.
  await platformCredit.assertCanStart(platformDepsOf(deps), userId);
  const market = input.category === 'Future' ? 'future' : 'spot';
  const leverage = market === 'future' ? (input.leverage ?? 1) : 1;
  const { row: strategy, params } = await findStrategy(deps, userId, type, input.myStrategy);

  if (input.amount < DEFAULT_MINIMUM_BOT_AMOUNT)
    throw new HttpError(400, m.amountMin(DEFAULT_MINIMUM_BOT_AMOUNT));
  const byGrid = minimumForGrids(params.grids);
  if (input.amount < byGrid) throw new HttpError(400, m.insufficientForGrids(params.grids, byGrid));

  if (await repo.runningBotOn(deps.db, userId, input.selectPair, input.category)) {
    throw new HttpError(400, m.alreadyRunning(input.selectPair));
  }

  const rules = getMarketRules(input.selectPair, market);
  // Each grid's order as it will be sent: quantity rounded to the step at the current price.
  const last = deps.feed.lastPrice(input.selectPair, market);
  const price = last === undefined ? null : Number(last);
  const problems = validateGridStart(params, input.amount, rules, leverage, price);
  if (problems.length > 0) throw new HttpError(400, problems.map((p) => p.message).join(' '));
  // The running bot's dialog refuses the same limits: a stoploss above the price stops the bot on its first tick.
  const wrongLimit = firstTriggerError(
    triggerVsLivePriceErrors(
      {
        pause: input.sellPausePrice ?? null,
        restart: input.restartPrice ?? null,
        stoploss: input.stoplossPrice ?? null,
      },
      price,
    ),
  );
  if (wrongLimit) throw new HttpError(400, wrongLimit);

  // The balance check and the insert that commits the funds are one step per account: parallel starts
  // (and transfers, swaps) of the member wait for each other (docs/security.md "One account, one queue").
  const botId = await deps.state.accounts.run(userId, async (conn) => {
    const { exchange, free } = await freeUsdt(deps, userId, market, conn);
    // The buys pay their fees on top of the grids' quotes (docs/trading-rules.md §2.1): the wallet must hold both.
    const needed = startCostWithFees(input.amount, market, leverage, DEFAULT_FEE_PCT[market]);
    if (money(free).lt(needed)) {
      throw new HttpError(
        400,
        `${m.insufficientBalance}: ${money(free).toFixed(2)} USDT free in your ${market === 'spot' ? 'spot' : 'futures'} wallet; the bot needs ${money(needed).toFixed(2)} USDT including fees.`,
      );
    }
    if (market === 'future') await setUpFutures(exchange, input.selectPair, leverage);
    return repo.insertBot(conn, {
      userId,
      botType: type,
      strategyId: strategy.userId === null ? null : strategy.id,
      strategyName: strategy.name,
      strategySnapshot: strategy.params as StrategyParams,
      symbol: input.selectPair,
      category: input.category,
      investment: String(input.amount),
      leverage,
      engineState: initialState(deps, input, params, leverage) as unknown as Record<string, unknown>,
      venue: exchange.venue,
    });
  });
  // Once the bot is written and its lock let go: the runtime reads the bot it is handed.
  await deps.botControl.add(botId);
  return { success: true, message: m.startCreated, botId };
}
