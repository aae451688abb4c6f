import { createGridBot, type GridParams, parseStrategy, validateGridStart } from '@gridbot/engine';
import { isExchangeError } from '@gridbot/exchange';
import {
  DEFAULT_MINIMUM_BOT_AMOUNT,
  getMarketRules,
  botMessages as m,
  minimumForGrids,
  money,
  type StartBotParsed,
  type StrategyParams,
} from '@gridbot/shared';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import { setUpFutures } from '../exchange/futures-setup';
import { platformCredit } from '../platform/platform-credit';
import { platformDepsOf } from '../platform/platform-runtime';
import { findOwnStrategy, findSystemStrategy } from '../strategies/strategies.repo';
import { committedFunds, freePart } from '../wallet/committed-funds';
import { userExchange } from '../wallet/user-exchange';
import * as repo from './bots.repo';

type BotType = 'multigrid' | 'scalping';

async function findStrategy(deps: AppDeps, userId: string, type: BotType, name: string) {
  const row =
    (await findOwnStrategy(deps.db, userId, type, name)) ?? (await findSystemStrategy(deps.db, type, name));
  if (!row) throw new HttpError(400, m.strategyNotFound);
  const parsed = parseStrategy({ ...row.params, type, strategy_name: row.name });
  if (!parsed.ok) throw new HttpError(400, `${m.strategyNotFound} ${parsed.errors[0] ?? ''}`.trim());
  return { row, params: parsed.value as GridParams };
}

/**
 * The free USDT of the wallet the bot trades from (futures: margin in the futures wallet), less what
 * running bots and cycles hold there.
 */
export async function freeUsdt(deps: AppDeps, userId: string, market: 'spot' | 'future') {
  const exchange = await userExchange(deps, userId);
  try {
    const [balances, committed] = await Promise.all([
      exchange.balances(market),
      committedFunds(deps, userId),
    ]);
    const balance = balances.find((b) => b.asset === 'USDT')?.free ?? '0';
    const reserved = market === 'spot' ? committed.spotUsdt : committed.futuresUsdt;
    return { exchange, free: freePart(balance, reserved) };
  } catch (error) {
    if (isExchangeError(error) && error.kind === 'fatal') throw new HttpError(500, m.invalidKeys);
    throw error;
  }
}

/**
 * Starts a Multigrid or Scalping bot (spec 01 Start bot): checks every rule of spec 01 §5 and the
 * exchange's minimum per grid (DESIGN §2.1), the balance and one running bot per pair and category, then
 * writes the bot with a snapshot of its strategy and hands it to the runtime.
 */
export async function startBot(deps: AppDeps, userId: string, type: BotType, input: StartBotParsed) {
  // Profit limit (DESIGN §5): at zero availableCredit nothing new starts.
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
  const problems = validateGridStart(params, input.amount, rules, leverage);
  if (problems.length > 0) throw new HttpError(400, problems.map((p) => p.message).join(' '));

  const { exchange, free } = await freeUsdt(deps, userId, market);
  if (money(free).lt(input.amount)) {
    throw new HttpError(
      400,
      `${m.insufficientBalance}: ${money(free).toFixed(2)} USDT free in your ${market === 'spot' ? 'spot' : 'futures'} wallet.`,
    );
  }
  if (market === 'future') await setUpFutures(exchange, input.selectPair, leverage);

  const state = createGridBot({
    params,
    investment: input.amount,
    market,
    leverage,
    startTimeMs: deps.clock.now().getTime(),
    maintMarginRate: rules.maintMarginRate,
    settings: {
      pausePrice: input.sellPausePrice ?? null,
      restartPrice: input.restartPrice ?? null,
      stoplossPrice: input.stoplossPrice ?? null,
      profitBookPct: input.profitbookat ?? null,
    },
  });
  const botId = await repo.insertBot(deps.db, {
    userId,
    botType: type,
    strategyId: strategy.userId === null ? null : strategy.id,
    strategyName: strategy.name,
    strategySnapshot: strategy.params as StrategyParams,
    symbol: input.selectPair,
    category: input.category,
    investment: String(input.amount),
    leverage,
    engineState: state as unknown as Record<string, unknown>,
  });
  await deps.botControl.add(botId);
  return { success: true, message: m.startCreated, botId };
}
