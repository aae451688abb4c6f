import type { Exchange } from '@gridbot/exchange';
import {
  botMessages as m,
  type OrderBookPage,
  type ProfitTotals,
  type PurchasedQty,
  type StrategyParams,
  walletMessages,
} from '@gridbot/shared';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import { insertStrategy, isUniqueViolation, takenNames } from '../strategies/strategies.repo';
import { committedFunds } from '../wallet/committed-funds';
import { isPaperVenue, PAPER_ACCOUNT_KEYS } from '../wallet/user-exchange';
import { usdtBalances } from '../wallet/wallet.service';
import { botStateCacheOf } from './bot-state-cache';
import {
  gridTypeOf,
  marketOf,
  priceOf,
  SparklineCache,
  statsAt,
  toBotSummary,
  toHistoryRow,
  toTopBot,
  unrealizedAt,
} from './bot-summary';
import * as repo from './bots.repo';
import { findUserBot } from './bots.repo';
import * as dashboardRepo from './dashboard.repo';

const DAY_MS = 86_400_000;
const RUNNING_TYPES = [...repo.GRID_TYPES, 'cycle'] as const;
const ORDER_BOOK_PAGE = 20;
const round = (value: number) => Number(value.toFixed(8));

const sparklines = new WeakMap<AppDeps['feed'], SparklineCache>();
/** One sparkline cache per feed, shared by bot and cycle cards. */
export function sparklineCache(deps: AppDeps) {
  let cache = sparklines.get(deps.feed);
  if (!cache) {
    cache = new SparklineCache(deps.feed);
    sparklines.set(deps.feed, cache);
  }
  return cache;
}

const nowMs = (deps: AppDeps) => deps.clock.now().getTime();

export function summaryStats(deps: AppDeps, bot: repo.BotView) {
  return statsAt(bot, priceOf(bot, deps.feed), nowMs(deps));
}

export async function summaryOf(deps: AppDeps, bot: repo.BotRow) {
  const now = nowMs(deps);
  const [points, counts] = await Promise.all([
    sparklineCache(deps).points(bot.symbol, marketOf(bot), now),
    repo.fillCountsSince(deps.db, [bot.id], now - DAY_MS),
  ]);
  return toBotSummary(bot, priceOf(bot, deps.feed), now, points, counts.get(bot.id) ?? 0);
}

/** Listed bots with their engine states: only states written since this process last read them are read. */
function withStates<T extends repo.BotHead>(deps: AppDeps, userId: string, rows: readonly T[]) {
  return botStateCacheOf(deps.db).withStates(rows, (ids) => repo.engineStatesOf(deps.db, userId, ids));
}

/** Dashboard cards: one query for the bots and their 24 h trade counts, engine states from the cache. */
export async function runningSummaries(deps: AppDeps, userId: string, type: repo.BotType) {
  const now = nowMs(deps);
  const heads = await dashboardRepo.listRunningBotHeadsWithTrades(deps.db, userId, type, now - DAY_MS);
  const rows = await withStates(deps, userId, heads);
  return Promise.all(
    rows.map(async (row) => {
      const points = await sparklineCache(deps).points(row.symbol, marketOf(row), now);
      return toBotSummary(row, priceOf(row, deps.feed), now, points, row.trades24h);
    }),
  );
}

export async function orderBook(deps: AppDeps, bot: repo.BotRow, page: number): Promise<OrderBookPage> {
  const rows = await repo.fillsPage(deps.db, bot.id, page, ORDER_BOOK_PAGE);
  const total = bot.fillCount;
  return {
    orders: rows.map((f) => ({
      date: new Date(f.timeMs).toISOString(),
      price: Number(f.price),
      type: f.side === 'buy' ? 'BUY' : 'SELL',
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

export function purchased(deps: AppDeps, bot: repo.BotRow): PurchasedQty {
  const s = summaryStats(deps, bot);
  return {
    totalQuantity: round(s.purchasedQty),
    avgPrice: round(s.avgBuyPrice ?? 0),
    totalpnl: round(s.totalPnl),
    pnl: round(s.unrealizedPnl),
  };
}

/**
 * The funds pie (spec 01 Dashboard): each running bot's investment; 'Not Active' 100 when none runs.
 * `availableBalance` is the free spot USDT (what running bots and cycles hold is taken out); `botCount`
 * counts the bots, which the pie's slices (top 8 plus Others) do not.
 */
export async function pieChart(deps: AppDeps, userId: string, type: repo.BotType) {
  // One query for the keys and the bots (as userExchange, 400 without keys on Binance), then the balances.
  const found = await dashboardRepo.keysAndRunningBots(deps.db, userId, type);
  let exchange: Exchange;
  let rows: { symbol: string; category: string; investment: string }[];
  if (found) {
    const keys = { apiKey: found.keys.apiKey, secret: deps.secrets.open(found.keys.secretSealed) };
    exchange = deps.exchanges.forUser(userId, keys);
    rows = found.running;
  } else {
    if (!isPaperVenue(deps)) throw new HttpError(400, walletMessages.notConnected);
    exchange = deps.exchanges.forUser(userId, PAPER_ACCOUNT_KEYS);
    rows = await repo.listRunningBots(deps.db, userId, type);
  }
  const balances = await usdtBalances(exchange, await committedFunds(deps, userId));
  const chartData =
    rows.length === 0
      ? [{ label: 'Not Active', value: 100 }]
      : rows.map((row) => ({
          label: `${row.symbol.replace(/USDT$/, '/USDT')} ${row.category}`,
          value: Number(row.investment),
        }));
  return { usdt: balances.total, availableBalance: balances.spot, chartData, botCount: rows.length };
}

export async function history(deps: AppDeps, userId: string, type: repo.BotType) {
  const rows = await repo.listStoppedBots(deps.db, userId, type);
  return rows.map((row) => toHistoryRow(row, nowMs(deps)));
}

/** Dashboard totals: Σ profitable sells, Σ losing sells, and total PnL with what running bots hold. */
export async function profitTotals(deps: AppDeps, userId: string): Promise<ProfitTotals> {
  const {
    profit,
    loss,
    running: heads,
  } = await dashboardRepo.userProfitAndRunningBots(deps.db, userId, RUNNING_TYPES);
  const rows = await withStates(deps, userId, heads);
  // Grid bots first, then cycles, each newest first: the order the sum was always taken in.
  const running = [
    ...rows.filter((r) => r.botType !== 'cycle'),
    ...rows.filter((r) => r.botType === 'cycle'),
  ];
  const unrealized = running.reduce((sum, row) => sum + unrealizedAt(row, priceOf(row, deps.feed)), 0);
  return { totalProfit: round(profit), lossBook: round(loss), totalpnl: round(profit + loss + unrealized) };
}

/** Copy BOTs (DESIGN §5): the 20 Live bots with the highest ROI across all users, anonymous. */
export async function topBots(deps: AppDeps) {
  const now = nowMs(deps);
  const ranked = (await repo.listAllLiveBots(deps.db))
    .map((row) => ({ row, roi: statsAt(row, priceOf(row, deps.feed), now).roiPct }))
    .sort((a, b) => b.roi - a.roi)
    .slice(0, 20);
  return Promise.all(
    ranked.map(async ({ row }) =>
      toTopBot(
        row,
        priceOf(row, deps.feed),
        now,
        await sparklineCache(deps).points(row.symbol, marketOf(row), now),
      ),
    ),
  );
}

/** Copies a running bot's strategy (any user's, it is shown anonymously) into the user's own strategies. */
export async function copyBotStrategy(deps: AppDeps, userId: string, botId: string) {
  const source = (await repo.findLiveBot(deps.db, botId)) ?? (await findUserBot(deps.db, userId, botId));
  if (!source) throw new HttpError(404, m.botNotFound);
  const kind = gridTypeOf(source);
  const taken = await takenNames(deps.db, userId, kind);
  const base = `${source.symbol} copy`.slice(0, 34);
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
