import type { Exchange } from '@gridbot/exchange';
import {
  type HistoryRow,
  botMessages as m,
  type OrderBookPage,
  type PieChartData,
  type ProfitTotals,
  type PurchasedQty,
  type StrategyParams,
  type TopBotsQuery,
  VENUE_NAMES,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { sha256 } from '../../lib/tokens';
import { exchangeKeys, isPaperVenue, PAPER_ACCOUNT_KEYS, userVenueName } from '../exchange';
import { insertStrategy, isUniqueViolation, takenNames } from '../strategies';
import {
  copyableRangeParams,
  gridTypeOf,
  marketOf,
  priceOf,
  rangeClosePrice,
  rankStatsAt,
  startOfLastDays,
  statsAt,
  strategyShapeOf,
  toBotSummary,
  toHistoryRow,
  toRangeHistoryRow,
  toTopBot,
  unrealizedAt,
} from './bot-summary';
import * as repo from './bots.repo';
import { committedFunds, usdtBalances } from './committed-funds';
import * as topRepo from './top-bots.repo';
import { HourlyRanking } from './top-bots-rank';

const DAY_MS = 86_400_000;
/** What the dashboard's total PnL values at the live price: grid bots, range grids (floating PnL) and cycles. */
const RUNNING_TYPES = repo.BOT_TYPES;
const ORDER_BOOK_PAGE = 20;
const round = (value: number) => Number(value.toFixed(8));

const nowMs = (deps: Pick<AppDeps, 'clock'>) => deps.clock.now().getTime();

export function summaryStats(deps: Pick<AppDeps, 'clock' | 'feed'>, bot: repo.BotView) {
  return statsAt(bot, priceOf(bot, deps.feed), nowMs(deps));
}

export async function summaryOf(deps: Pick<AppDeps, 'db' | 'clock' | 'feed' | 'state'>, bot: repo.BotRow) {
  const now = nowMs(deps);
  const [points, counts] = await Promise.all([
    deps.state.sparklines.points(bot.symbol, marketOf(bot), now),
    repo.fillCountsSince(deps.db, [bot.id], now - DAY_MS),
  ]);
  return toBotSummary(bot, priceOf(bot, deps.feed), now, points, counts.get(bot.id) ?? 0);
}

/** Listed bots with their engine states: only states written since this process last read them are read. */
function withStates<T extends repo.BotHead>(
  deps: Pick<AppDeps, 'db' | 'state'>,
  userId: string,
  rows: readonly T[],
) {
  return deps.state.botStates.withStates(rows, (ids) => repo.engineStatesOf(deps.db, userId, ids));
}

/** Dashboard cards: one query for the bots and their 24 h trade counts, engine states from the cache. */
export async function runningSummaries(
  deps: Pick<AppDeps, 'db' | 'clock' | 'feed' | 'state'>,
  userId: string,
  type: repo.BotType,
) {
  const now = nowMs(deps);
  const heads = await deps.state.dashboard.listRunningBotHeadsWithTrades(userId, type, now - DAY_MS);
  const rows = await withStates(deps, userId, heads);
  return Promise.all(
    rows.map(async (row) => {
      const points = await deps.state.sparklines.points(row.symbol, marketOf(row), now);
      return toBotSummary(row, priceOf(row, deps.feed), now, points, row.trades24h);
    }),
  );
}

export async function orderBook(
  deps: Pick<AppDeps, 'db'>,
  bot: repo.BotRow,
  page: number,
): Promise<OrderBookPage> {
  const rows = await repo.fillsPage(deps.db, bot.id, page, ORDER_BOOK_PAGE);
  const total = bot.fillCount;
  return {
    orders: rows.map((f) => ({
      date: new Date(f.timeMs).toISOString(),
      price: Number(f.price),
      type: f.side === 'buy' ? 'BUY' : f.side === 'sell' ? 'SELL' : 'FUNDING',
      quantity: Number(f.qty),
      cummulativeQuoteQty: Number(f.quote),
      pnl: f.pnl === null ? 0 : Number(f.pnl),
      grid: f.grid,
    })),
    total,
    page,
    pages: Math.max(1, Math.ceil(total / ORDER_BOOK_PAGE)),
  };
}

export function purchased(deps: Pick<AppDeps, 'clock' | 'feed'>, bot: repo.BotRow): PurchasedQty {
  const s = summaryStats(deps, bot);
  return {
    totalQuantity: round(s.purchasedQty),
    avgPrice: round(s.avgBuyPrice ?? 0),
    totalpnl: round(s.totalPnl),
    pnl: round(s.unrealizedPnl),
  };
}

/**
 * The funds pie (docs/spec/01-core-screens.md Dashboard): each running bot's investment; 'Not Active' 100 when none runs.
 * `availableBalance` is the free spot USDT (what running bots and cycles hold is taken out); `botCount`
 * counts the bots, which the pie's slices (top 8 plus Others) do not.
 */
/** The pie's one slice when no bot runs. */
const NOT_ACTIVE = { label: 'Not Active', value: 100 };

export async function pieChart(
  deps: Pick<AppDeps, 'db' | 'exchanges' | 'secrets' | 'state'>,
  userId: string,
  type: repo.BotType,
): Promise<PieChartData> {
  // One query for the keys and the bots (as userExchange, 400 without keys on Binance), then the balances.
  const found = await deps.state.dashboard.keysAndRunningBots(userId, type);
  let exchange: Exchange;
  let rows: { symbol: string; category: string; investment: string }[];
  if (found) {
    exchange = deps.exchanges.forUser(userId, exchangeKeys(deps, found.keys));
    rows = found.running;
  } else {
    // On Binance without keys there are no balances to show and no bot can run (keys cannot be removed while
    // one does). The dashboard polls this every 10 s, so it answers that as data, not as a 400 on each poll.
    if (!isPaperVenue(deps)) {
      return { usdt: null, availableBalance: null, chartData: [NOT_ACTIVE], botCount: 0, connected: false };
    }
    exchange = deps.exchanges.forUser(userId, PAPER_ACCOUNT_KEYS);
    rows = await repo.listRunningBots(deps.db, userId, type);
  }
  const balances = await usdtBalances(exchange, await committedFunds(deps, userId));
  const chartData =
    rows.length === 0
      ? [NOT_ACTIVE]
      : rows.map((row) => ({
          label: `${row.symbol.replace(/USDT$/, '/USDT')} ${row.category}`,
          value: Number(row.investment),
        }));
  return { usdt: balances.total, availableBalance: balances.spot, chartData, botCount: rows.length };
}

/**
 * The user's stopped bots of a kind, newest first, each named with the exchange it traded on (for bots started
 * before that was recorded, the exchange the user's key is on).
 */
export async function history(
  deps: Pick<AppDeps, 'db' | 'clock' | 'exchanges'>,
  userId: string,
  type: repo.BotType,
): Promise<HistoryRow[]> {
  const [rows, exchange] = await Promise.all([
    repo.listStoppedBots(deps.db, userId, type),
    userVenueName(deps, userId),
  ]);
  const rowOf = type === 'range' ? toRangeHistoryRow : toHistoryRow;
  return rows.map((row) => ({
    ...rowOf(row, nowMs(deps)),
    exchange: row.venue ? VENUE_NAMES[row.venue] : exchange,
  }));
}

/**
 * Dashboard totals: Σ profitable sells, Σ losing sells, and total PnL with what running bots hold: their open
 * lots, and a range grid's floating PnL (its grid profit is in the Profit Book, as its card shows both).
 */
export async function profitTotals(
  deps: Pick<AppDeps, 'db' | 'feed' | 'state'>,
  userId: string,
): Promise<ProfitTotals> {
  const [{ profit, loss, running: heads }, closed] = await Promise.all([
    deps.state.dashboard.userProfitAndRunningBots(userId, RUNNING_TYPES),
    stoppedGridsFloating(deps, userId),
  ]);
  const rows = await withStates(deps, userId, heads);
  // Grid bots and range grids first, then cycles, each newest first: the order the sum was always taken in.
  const running = [
    ...rows.filter((r) => r.botType !== 'cycle'),
    ...rows.filter((r) => r.botType === 'cycle'),
  ];
  const unrealized = running.reduce((sum, row) => sum + unrealizedAt(row, priceOf(row, deps.feed)), 0);
  return {
    totalProfit: round(profit),
    lossBook: round(loss),
    totalpnl: round(profit + loss + unrealized + closed),
  };
}

/** Each stopped range grid's floating PnL at its close, by bot id and state version, one map per process. */
const closedFloating = new WeakMap<AppDeps['state'], Map<string, number>>();

/**
 * What the user's stopped range grids made or lost on the coin (or position) they held, valued at their closing
 * price: the stop's sale books no grid profit, so the Profit and Loss Books never hold it, yet it is in each
 * grid's total PnL (History), as the floating PnL was in the dashboard's while it ran. A stopped state does not
 * change: it is read once per version.
 */
async function stoppedGridsFloating(deps: Pick<AppDeps, 'db' | 'state'>, userId: string): Promise<number> {
  const cache = closedFloating.get(deps.state) ?? new Map<string, number>();
  closedFloating.set(deps.state, cache);
  const heads = await deps.state.dashboard.stoppedRangeGrids(userId);
  const keyOf = (head: { id: string; stateVersion: number }) => `${head.id}:${head.stateVersion}`;
  const unknown = heads.filter((head) => !cache.has(keyOf(head)));
  for (const row of await repo.rangeRowsOf(
    deps.db,
    userId,
    unknown.map((head) => head.id),
  )) {
    if (row.engineState) cache.set(keyOf(row), unrealizedAt(row, rangeClosePrice(row)));
  }
  return heads.reduce((sum, head) => sum + (cache.get(keyOf(head)) ?? 0), 0);
}

/** Copy BOTs ranks bots that have run at least this long (a day's ROI says little). */
const TOP_BOTS_MIN_RUNTIME_MS = DAY_MS;
const TOP_BOTS = 20;
/** The hour's Copy BOTs order, one per process (its ProcessState), so two apps in one test process share none. */
const rankings = new WeakMap<AppDeps['state'], HourlyRanking>();

/**
 * Copy BOTs (docs/product.md §5): the 20 Live bots of other users with the highest positive ROI that have run at
 * least a day (or the asked minimum), anonymous. The order is this hour's (top-bots-rank.ts): equal ROIs (to 4
 * decimals) keep the older bot first; the figures on each card are live.
 */
export async function topBots(
  deps: Pick<AppDeps, 'db' | 'clock' | 'feed' | 'secrets' | 'state'>,
  viewerId: string,
  query: Partial<TopBotsQuery> = {},
) {
  const now = nowMs(deps);
  const minMs = Math.max(TOP_BOTS_MIN_RUNTIME_MS, (query.minDays ?? 0) * DAY_MS);
  const rows = await repo.listAllLiveBots(deps.db, {
    startedBefore: new Date(now - minMs),
    exceptUserId: viewerId,
    symbol: query.pair,
    category: query.category,
  });
  const live = rows
    .map((row, age) => ({ row, age, stats: rankStatsAt(row, priceOf(row, deps.feed), now) }))
    .filter(({ stats }) => stats.runtimeMs >= minMs && Number(stats.roiPct.toFixed(4)) > 0);
  const byId = new Map(live.map((entry) => [entry.row.id, entry]));
  const ranking = rankings.get(deps.state) ?? new HourlyRanking();
  rankings.set(deps.state, ranking);
  const key = JSON.stringify([viewerId, query.pair, query.category, minMs]);
  const rank = () =>
    [...live]
      .sort((a, b) => Number(b.stats.roiPct.toFixed(4)) - Number(a.stats.roiPct.toFixed(4)) || a.age - b.age)
      .map((entry) => entry.row.id);
  const ranked = ranking
    .order(key, now, rank, new Set(byId.keys()))
    .slice(0, TOP_BOTS)
    .map((id) => byId.get(id)!.row);
  const grids = ranked.filter((row) => row.botType === 'range');
  const [copies, gridCopies, demo, booked7d] = await Promise.all([
    topRepo.copyCountsOf(
      deps.db,
      ranked.filter((row) => row.botType !== 'range'),
    ),
    topRepo.gridCopyCountsOf(
      deps.db,
      grids.map((row) => row.id),
    ),
    topRepo.demoBotIds(
      deps.db,
      ranked.map((row) => row.id),
    ),
    topRepo.bookedSince(
      deps.db,
      grids.map((row) => row.id),
      startOfLastDays(now, 7),
    ),
  ]);
  return Promise.all(
    ranked.map(async (row) =>
      toTopBot(
        row,
        priceOf(row, deps.feed),
        now,
        await deps.state.sparklines.points(row.symbol, marketOf(row), now),
        {
          copyToken: deps.secrets.seal(`${COPY_TOKEN_PREFIX}${row.id}`),
          key: cardKeyOf(row.id),
          copyCount: (row.botType === 'range' ? gridCopies : copies).get(row.id) ?? 0,
          demo: demo.has(row.id),
          profit7d: booked7d.get(row.id) ?? 0,
        },
      ),
    ),
  );
}

/** A card's stable key: a digest of the bot id under a purpose prefix, never the id itself. */
const cardKeyOf = (botId: string) => sha256(`copy-card:${botId}`).slice(0, 24);

/** What a copy token seals: a purpose prefix, so no other sealed value passes for one. */
const COPY_TOKEN_PREFIX = 'copy-bot:';

function botIdOfToken(deps: Pick<AppDeps, 'secrets'>, token: string): string | undefined {
  try {
    const opened = deps.secrets.open(token);
    return opened.startsWith(COPY_TOKEN_PREFIX) ? opened.slice(COPY_TOKEN_PREFIX.length) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Copies a ranked bot's strategy (any user's: it is shown anonymously) into the user's own strategies,
 * named after its shape ("Multigrid 10 · copy", then "… · copy 2"), never after its owner's name for it. A
 * range grid answers its parameters instead (copyableRangeParams), stored nowhere: Start Grid opens with them;
 * the member's copy is counted on the grid's card.
 */
export async function copyBotStrategy(
  deps: Pick<AppDeps, 'db' | 'secrets'>,
  userId: string,
  copyToken: string,
) {
  const botId = botIdOfToken(deps, copyToken);
  const source = botId ? await repo.findLiveBot(deps.db, botId) : undefined;
  if (!source) throw new HttpError(404, m.botNotFound);
  // Range grids keep no saved strategies: the copy is the grid's parameters, for Start Grid to open with.
  if (source.botType === 'range') {
    if (source.userId !== userId) await topRepo.recordGridCopy(deps.db, source.id, userId);
    return { success: true, botType: 'range' as const, strategy: copyableRangeParams(source) };
  }
  const kind = gridTypeOf(source);
  const taken = await takenNames(deps.db, userId, kind);
  const base = `${strategyShapeOf(source)} · copy`;
  let name = base;
  for (let i = 2; taken.has(name.toLowerCase()); i += 1) name = `${base} ${i}`;
  try {
    await insertStrategy(deps.db, userId, { kind, name, params: source.strategySnapshot as StrategyParams });
  } catch (error) {
    if (isUniqueViolation(error)) throw new HttpError(409, 'Strategy with the same name already exists');
    throw error;
  }
  return { success: true, strategy_name: name, botType: kind };
}
