import { createCycle, validateCycleStart } from '@gridbot/engine';
import {
  botMessages,
  type EditCycle,
  findMaintBrackets,
  getMarketRules,
  type MissingLotsChoice,
  cycleMessages as m,
  money,
  type StartCycle,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { platformDepsOf } from '../../config/platform-runtime';
import { HttpError } from '../../lib/http-error';
import {
  type BotRow,
  findUserBot,
  freeUsdt,
  history,
  insertBot,
  listRunningBots,
  marketOf,
  priceOf,
  resumeAfterHalt,
  runningBotOn,
  sendBotCommand,
} from '../bots';
import { platformCredit } from '../credit';
import { setUpFutures } from '../exchange';
import { cycleState, isHolding, toLiveCycle } from './cycle-summary';

/** The user's cycle, or 404: another user's cycle reads as missing (docs/trading-rules.md §3). */
export async function cycleOf(deps: Pick<AppDeps, 'db'>, userId: string, cycleId: string) {
  const row = await findUserBot(deps.db, userId, cycleId, 'cycle');
  if (!row) throw new HttpError(404, m.cycleNotFound);
  return row;
}

function assertCycleRunning(row: BotRow) {
  if (row.status === 'Stopped') throw new HttpError(400, m.notRunning);
}

/**
 * Starts a cycle (docs/spec/02-bots-wallet-account.md Start Cycle, docs/trading-rules.md §2.4): the exchange minimum for the pair, one running bot or
 * cycle per pair and category, the wallet's free USDT; then the cycle runs on the bot runtime.
 */
export async function startCycle(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'exchanges' | 'secrets' | 'botControl' | 'state'>,
  userId: string,
  input: StartCycle,
) {
  await platformCredit.assertCanStart(platformDepsOf(deps), userId);
  const market = input.category === 'Future' ? 'future' : 'spot';
  const leverage = market === 'future' ? (input.leverage ?? 1) : 1;
  const rules = getMarketRules(input.pair, market);
  const minimum = money(rules.minNotional).dividedBy(leverage).toDecimalPlaces(2, 0).toNumber();
  if (input.amount < minimum) throw new HttpError(400, m.amountMin(minimum));

  if (await runningBotOn(deps.db, userId, input.pair, input.category)) {
    throw new HttpError(400, botMessages.alreadyRunning(input.pair));
  }
  const params = {
    buyPrice: input.priceReachAt,
    sellPrice: input.sellPriceAt,
    stopLoss: input.stopLossAt ?? null,
    cycles: input.cycleCount,
    amount: input.amount,
  };
  const problems = validateCycleStart(params, rules, leverage);
  if (problems.length > 0) throw new HttpError(400, problems.map((p) => p.message).join(' '));

  // As a bot start: the balance check and the insert are one step per account (docs/security.md "One
  // account, one queue").
  const cycleId = await deps.state.accounts.run(userId, async (conn) => {
    const { exchange, free } = await freeUsdt(deps, userId, market, conn);
    if (money(free).lt(input.amount)) {
      throw new HttpError(
        400,
        `${botMessages.insufficientBalance}: ${money(free).toFixed(2)} USDT free in your ${market === 'spot' ? 'spot' : 'futures'} wallet.`,
      );
    }
    if (market === 'future') await setUpFutures(exchange, input.pair, leverage);
    const state = createCycle({
      params,
      market,
      leverage,
      maintMarginRate: rules.maintMarginRate,
      maintBrackets: findMaintBrackets(input.pair),
      startTimeMs: deps.clock.now().getTime(),
    });
    return insertBot(conn, {
      userId,
      botType: 'cycle',
      strategyId: null,
      strategyName: '',
      strategySnapshot: {
        buyPrice: params.buyPrice,
        sellPrice: params.sellPrice,
        stopLoss: params.stopLoss,
        cycles: params.cycles,
      },
      symbol: input.pair,
      category: input.category,
      investment: String(input.amount),
      leverage,
      engineState: state as unknown as Record<string, unknown>,
      venue: exchange.venue,
    });
  });
  await deps.botControl.add(cycleId);
  return { success: true, message: m.starting, cycle_id: cycleId };
}

export async function liveCycles(deps: Pick<AppDeps, 'db' | 'clock' | 'feed' | 'state'>, userId: string) {
  const rows = await listRunningBots(deps.db, userId, 'cycle');
  const now = deps.clock.now().getTime();
  const cycles = await Promise.all(
    rows.map(async (row) =>
      toLiveCycle(
        row,
        priceOf(row, deps.feed),
        now,
        await deps.state.sparklines.points(row.symbol, marketOf(row), now),
      ),
    ),
  );
  return { cycles };
}

/** Edit while running; the count may not fall to or below the cycles already done (ours). */
export async function editCycle(
  deps: Pick<AppDeps, 'db' | 'botControl' | 'state'>,
  userId: string,
  input: EditCycle,
) {
  const row = await cycleOf(deps, userId, input.cycle_id);
  assertCycleRunning(row);
  const state = cycleState(row);
  const noOfCycle = input.no_of_cycle;
  if (noOfCycle <= state.cyclesCompleted) throw new HttpError(400, m.cycleCountDone(state.cyclesCompleted));
  await sendBotCommand(
    deps,
    row.id,
    {
      type: 'edit_cycle',
      buyPrice: input.buy_price,
      sellPrice: input.sell_price,
      stopLoss: input.stop_loss ?? null,
      cycles: noOfCycle,
    },
    m.updateFailed,
  );
  return { success: true, message: m.updated };
}

export async function stopCycle(
  deps: Pick<AppDeps, 'db' | 'botControl' | 'state'>,
  userId: string,
  cycleId: string,
  sell: boolean,
) {
  const row = await cycleOf(deps, userId, cycleId);
  assertCycleRunning(row);
  if (sell && !isHolding(cycleState(row))) throw new HttpError(400, m.notHolding);
  const outcome = await sendBotCommand(
    deps,
    row.id,
    { type: sell ? 'stop_sell' : 'stop' },
    sell ? m.stopSellFailed : m.stopFailed,
  );
  if (outcome === 'requested') return { success: true, stopping: true, message: m.stopRequested };
  return { success: true, message: sell ? m.stoppedSold : m.stopped };
}

/**
 * Resumes a cycle the runtime paused (keys missing, orders failing, coins sold outside the platform: with the
 * user's choice about them), once the cause is fixed; as a grid bot resumes.
 */
export async function resumeCycle(
  deps: Pick<AppDeps, 'db' | 'feed' | 'exchanges' | 'secrets' | 'botControl' | 'state'>,
  userId: string,
  cycleId: string,
  missingLots?: MissingLotsChoice,
) {
  const row = await cycleOf(deps, userId, cycleId);
  const texts = {
    notHalted: m.notHalted,
    resumed: m.resumed,
    notPausedForMissingCoins: m.notPausedForMissingCoins,
  };
  return resumeAfterHalt(deps, row, texts, missingLots);
}

export async function cycleHistory(deps: Pick<AppDeps, 'db' | 'clock' | 'exchanges'>, userId: string) {
  return history(deps, userId, 'cycle');
}
