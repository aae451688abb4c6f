import {
  aprPct,
  compileRules,
  createRange,
  isOutOfRange,
  levelPrice,
  type RangeState,
  rangeBounds,
  rangeFilterProblems,
  rangePnl,
  rangeStartPrice,
  rangeStartProblems,
  reviveRange,
  roiPct,
  startCostWithFees,
} from '@gridbot/engine';
import {
  DEFAULT_FEE_PCT,
  findMaintBrackets,
  type GridBotView,
  type GridEditInput,
  type GridFillView,
  getMarketRules,
  botMessages as m,
  money,
  type StartGridParsed,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { platformDepsOf } from '../../config/platform-runtime';
import { HttpError } from '../../lib/http-error';
import { freeUsdt, insertBot, runningBotOn, sendBotCommand } from '../bots';
import { platformCredit } from '../credit';
import { setUpFutures } from '../exchange';
import * as repo from './grid.repo';

/** A short or neutral futures grid on an exchange key whose adapter sends every futures sell reduce-only. */
export const LIVE_LONG_ONLY =
  'Short and neutral futures grids do not run on this exchange: every grid sell there closes a long. Choose long.';

type StartDeps = Pick<
  AppDeps,
  'db' | 'clock' | 'config' | 'feed' | 'exchanges' | 'secrets' | 'botControl' | 'state'
>;

/**
 * Starts a range grid (docs/trading-rules.md §2.6): the engine's start refusals (spacing below twice the maker
 * fee, a quantity below the step or the minimum notional) answer 400 with its message, and so do the live
 * exchange's order filters (more orders than MAX_NUM_ORDERS, levels outside the percent-price filter); then, as every start,
 * the profit limit, one running bot per pair and category, and the wallet's free USDT, checked and committed
 * in the account's queue. The grid waits for its first tick (and its trigger) in the runtime.
 */
export async function startGrid(deps: StartDeps, userId: string, input: StartGridParsed) {
  await platformCredit.assertCanStart(platformDepsOf(deps), userId);
  const market = input.category === 'Future' ? 'future' : 'spot';
  const params = input.strategy;
  const last = deps.feed.lastPrice(input.selectPair, market);
  if (last === undefined)
    throw new HttpError(400, `No price for ${input.selectPair} yet: try again in a moment.`);
  const rules = compileRules(getMarketRules(input.selectPair, market));
  const leverage = market === 'future' ? params.leverage : 1;
  const funds = market === 'future' ? money(input.amount).times(leverage).toNumber() : input.amount;
  const startPrice = rangeStartPrice(params, Number(last));
  const problems = rangeStartProblems(params, funds, startPrice, rules, market);
  if (problems.length > 0) throw new HttpError(400, problems.join('; '));
  if (await runningBotOn(deps.db, userId, input.selectPair, input.category))
    throw new HttpError(400, m.alreadyRunning(input.selectPair));

  const botId = await deps.state.accounts.run(userId, async (conn) => {
    const { exchange, free } = await freeUsdt(deps, userId, market, conn);
    // An exchange whose adapter sends every futures sell reduce-only would refuse a short's opening sell. The
    // paper exchange, Binance, Bybit and OKX open shorts when the order says so (Exchange.opensShorts).
    if (market === 'future' && params.direction !== 'long' && !exchange.opensShorts)
      throw new HttpError(400, LIVE_LONG_ONLY);
    // A live exchange's filters (§2.6 "Live (Binance)"): the open orders and their prices must pass its
    // MAX_NUM_ORDERS and percent-price filters at the price the orders go out at (the paper rules carry none).
    const live = await exchange.marketRules(input.selectPair, market);
    const refused = rangeFilterProblems(params, startPrice, live, market);
    if (refused.length > 0) throw new HttpError(400, refused.join('; '));
    const needed = startCostWithFees(input.amount, market, leverage, DEFAULT_FEE_PCT[market]);
    if (money(free).lt(needed)) {
      throw new HttpError(
        400,
        `${m.insufficientBalance}: ${money(free).toFixed(2)} USDT free in your ${market === 'spot' ? 'spot' : 'futures'} wallet; the grid needs ${money(needed).toFixed(2)} USDT including fees.`,
      );
    }
    if (market === 'future') await setUpFutures(exchange, input.selectPair, leverage);
    const state = createRange({
      params,
      investment: input.amount,
      market,
      rules,
      startTimeMs: deps.clock.now().getTime(),
      leverage,
      brackets: market === 'future' ? (findMaintBrackets(input.selectPair) ?? null) : null,
    });
    return insertBot(conn, {
      userId,
      botType: 'range',
      strategyId: null,
      strategyName: params.name ?? '',
      strategySnapshot: params,
      symbol: input.selectPair,
      category: input.category,
      investment: String(input.amount),
      leverage,
      engineState: state as unknown as Record<string, unknown>,
      venue: exchange.venue,
    });
  });
  await deps.botControl.add(botId);
  return { message: m.botStarting, botID: botId };
}

async function gridOf(deps: Pick<AppDeps, 'db'>, userId: string, botId: string) {
  const row = await repo.findGridBot(deps.db, userId, botId);
  if (!row?.engineState) throw new HttpError(404, m.botNotFound);
  return row;
}

/** A grid as the dashboard card, its page and History show it. */
async function viewOf(deps: Pick<AppDeps, 'db' | 'feed' | 'clock'>, row: repo.GridRow): Promise<GridBotView> {
  const s = reviveRange(row.engineState as unknown as RangeState);
  const market = row.category === 'Future' ? 'future' : 'spot';
  const feedPrice = deps.feed.lastPrice(row.symbol, market);
  const closed = row.closedPrice === null ? undefined : Number(row.closedPrice);
  const lastPrice =
    row.status === 'Stopped' && closed !== undefined
      ? closed
      : feedPrice === undefined
        ? s.stats.startPrice
        : Number(feedPrice);
  const pnl = rangePnl(s, lastPrice, DEFAULT_FEE_PCT[market]);
  const ids = await repo.clientOrderIds(
    deps.db,
    row.id,
    s.orders.map((o) => o.seq),
  );
  const end = row.stoppedAt ?? deps.clock.now();
  const runtimeMs = end.getTime() - row.createdAt.getTime();
  const f = s.futures;
  const status: GridBotView['status'] =
    row.status === 'Stopping' || row.status === 'Stopped'
      ? row.status
      : s.status === 'Waiting'
        ? 'Waiting'
        : 'Live';
  const levels: number[] = [];
  for (let k = s.offset; k <= s.offset + s.params.grids; k++) levels.push(levelPrice(s.spec, k));
  return {
    id: row.id,
    symbol: row.symbol,
    category: row.category,
    status,
    stopReason: s.stopReason,
    haltReason: row.haltReason,
    outOfRange: isOutOfRange(s, lastPrice),
    strategy: s.params,
    investment: s.investment,
    qtyPerOrder: s.qty,
    levels,
    orders: s.orders.map((o) => ({
      level: o.level,
      side: o.side,
      price: o.price,
      qty: o.qty,
      clientOrderId: ids.get(o.seq) ?? '',
      reduceOnly: o.reduceOnly === true,
    })),
    gridProfit: pnl.gridProfit,
    floatingPnl: pnl.floatingPnl,
    totalPnl: pnl.totalPnl,
    gridApr: aprPct(roiPct(pnl.gridProfit, s.investment), runtimeMs),
    matchedTrades: s.stats.matchedTrades,
    trades: s.stats.trades,
    fees: s.stats.fees,
    startPrice: s.stats.startPrice,
    lastPrice,
    base: s.base,
    quote: s.quote,
    position:
      f === undefined
        ? null
        : {
            size: f.pos,
            entryPrice: f.pos === 0 ? 0 : money(f.entry).dividedBy(Math.abs(f.pos)).toNumber(),
            margin: f.margin,
            liquidationPrice: f.liqPrice,
            funding: f.funding,
          },
    startedAt: row.createdAt.toISOString(),
    stoppedAt: row.stoppedAt?.toISOString() ?? null,
  };
}

export async function listGrids(deps: Pick<AppDeps, 'db' | 'feed' | 'clock'>, userId: string) {
  const rows = await repo.listGridBots(deps.db, userId);
  return Promise.all(rows.filter((r) => r.engineState).map((r) => viewOf(deps, r)));
}

export async function gridInfo(deps: Pick<AppDeps, 'db' | 'feed' | 'clock'>, userId: string, botId: string) {
  return viewOf(deps, await gridOf(deps, userId, botId));
}

export async function gridFillsOf(
  deps: Pick<AppDeps, 'db'>,
  userId: string,
  botId: string,
): Promise<GridFillView[]> {
  await gridOf(deps, userId, botId);
  const rows = await repo.gridFills(deps.db, userId, botId);
  return rows
    .filter((r) => r.side !== 'FUNDING')
    .map((r) => ({
      time: new Date(Number(r.timeMs)).toISOString(),
      side: r.side as 'buy' | 'sell',
      level: r.kind === 'PlaceLimit' ? r.grid : null,
      price: Number(r.price),
      qty: Number(r.qty),
      quote: Number(r.quote),
      // What the exchange charged, in its asset (a spot buy's commission is coin, docs/trading-rules.md §2.1).
      fee: Number(r.feePaid ?? r.fee),
      feeAsset: r.feeAsset,
      pnl: r.pnl === null ? null : Number(r.pnl),
    }));
}

type CommandDeps = Parameters<typeof sendBotCommand>[0];

/** The trader's stop: every order cancelled; with `sell` the coin sold (futures: the position closed). */
export async function stopGrid(deps: CommandDeps, userId: string, botId: string, sell: boolean) {
  const row = await gridOf(deps, userId, botId);
  if (row.status === 'Stopped') throw new HttpError(400, m.botNotRunning);
  const outcome = await sendBotCommand(
    deps,
    botId,
    { type: sell ? 'stop_sell' : 'stop' },
    sell ? m.stopSellFailed : m.stopFailed,
  );
  if (outcome === 'requested') return { message: m.stopRequested, stopping: true as const };
  return { message: sell ? m.stoppedSold : m.stopped };
}

/** The stops and trailing of a running grid; each checked against the grid's current bounds. */
export async function editGrid(deps: CommandDeps, userId: string, input: GridEditInput) {
  const row = await gridOf(deps, userId, input.botID);
  if (row.status === 'Stopped') throw new HttpError(400, m.botNotRunning);
  const s = row.engineState as unknown as RangeState;
  const { lower, upper } = rangeBounds(s);
  const { botID: _id, ...edit } = input;
  const num = (v: unknown) => (v === null || v === undefined ? v : Number(v));
  const stopLoss = num(edit.stopLoss);
  const takeProfit = num(edit.takeProfit);
  const upLimit = num(edit.trailingUpLimit);
  const downLimit = num(edit.trailingDownLimit);
  if (typeof stopLoss === 'number' && !(stopLoss < lower))
    throw new HttpError(400, `stopLoss must be below the grid's lower price ${lower}`);
  if (typeof takeProfit === 'number' && !(takeProfit > upper))
    throw new HttpError(400, `takeProfit must be above the grid's upper price ${upper}`);
  if (typeof upLimit === 'number' && !(upLimit > upper))
    throw new HttpError(400, `trailingUpLimit must be above the grid's upper price ${upper}`);
  if (typeof downLimit === 'number' && !(downLimit < lower))
    throw new HttpError(400, `trailingDownLimit must be below the grid's lower price ${lower}`);
  if (edit.trailingDown === true && row.category !== 'Future')
    throw new HttpError(400, 'trailing down is for futures grids only');
  const change: Record<string, number | boolean | null> = Object.fromEntries(
    Object.entries({
      stopLoss,
      takeProfit,
      sellOnStop: edit.sellOnStop,
      trailingUp: edit.trailingUp,
      trailingUpLimit: upLimit,
      trailingDown: edit.trailingDown,
      trailingDownLimit: downLimit,
    }).filter((e): e is [string, number | boolean | null] => e[1] !== undefined),
  );
  await sendBotCommand(deps, input.botID, { type: 'grid_edit', edit: change }, m.gridUpdateFailed);
  return { message: m.gridUpdated };
}
