import {
  aprPct,
  type BotStats,
  botLevels,
  botStats,
  type EngineState,
  type GridBotState,
  type RangeState,
  rangePnl,
  reviveRange,
  roiPct,
  unrealizedPnl,
  utcDateKey,
} from '@gridbot/engine';
import type { MarketFeed } from '@gridbot/exchange';
import {
  type BotLevels,
  type BotSummary,
  DEFAULT_FEE_PCT,
  type DustView,
  type HistoryRow,
  type TopBot,
} from '@gridbot/shared';
import type { BotRow, BotView } from './bots.repo';
import { perState } from './per-state';

const DAY_MS = 86_400_000;
const round = (value: number, digits = 8) => Number(value.toFixed(digits));

export const marketOf = (row: Pick<BotRow, 'category'>) => (row.category === 'Future' ? 'future' : 'spot');

/** The engine state of a bot or a cycle. */
export function engineStateOf(row: BotView): EngineState {
  const state = row.engineState as unknown as EngineState | null;
  if (!state) throw new Error(`bot ${row.id} has no engine state`);
  return state;
}

/** The type of a grid bot row (cycles are rows too, but never reach the grid bot screens). */
export function gridTypeOf(row: BotView): 'multigrid' | 'scalping' {
  if (row.botType === 'cycle' || row.botType === 'range')
    throw new Error(`bot ${row.id} is a ${row.botType}`);
  return row.botType;
}

export function gridState(row: BotView): GridBotState {
  const state = engineStateOf(row);
  if (state.kind === 'cycle') throw new Error(`bot ${row.id} has no grid engine state`);
  return state;
}

/**
 * The market's taker fee (percent): every order the engine sends is a market order, so selling the holdings
 * (futures: closing the position) would pay it, and the unrealized PnL counts it (docs/trading-rules.md §2.1).
 */
export function exitFeePctOf(row: Pick<BotRow, 'category'>): number {
  return DEFAULT_FEE_PCT[marketOf(row)];
}

/** Engine statistics of a bot at a price (the live price; for stopped bots the closing price). */
export function statsAt(row: BotView, price: number, nowMs: number): BotStats {
  return botStats(engineStateOf(row), { price, timeMs: nowMs }, exitFeePctOf(row));
}

/** A range grid's engine state (docs/trading-rules.md §2.6), revived (once per stored state). */
const rangeStateOf = perState((row: BotView) => reviveRange(row.engineState as unknown as RangeState));

/**
 * What the bot's open lots would gain or lose if sold at `price`, less the sale's fee (the dashboard totals); a
 * range grid's floating PnL, the held coin (or position) against what its grid profit leaves.
 */
export function unrealizedAt(row: BotView, price: number): number {
  if (row.botType === 'range') return rangePnl(rangeStateOf(row), price, exitFeePctOf(row)).floatingPnl;
  return unrealizedPnl(engineStateOf(row).account, price, exitFeePctOf(row));
}

/**
 * Price the screens value a bot at: the feed's last price, else the newest lot's or the closing price (a range
 * grid: the closing price, else its start price).
 */
export function priceOf(row: BotView, feed: MarketFeed): number {
  const live = feed.lastPrice(row.symbol, marketOf(row));
  if (live !== undefined) return Number(live);
  if (row.botType === 'range') return rangeClosePrice(row);
  const state = engineStateOf(row);
  return state.lots.at(-1)?.price ?? Number(row.closedPrice ?? 0);
}

/** The figures Copy BOTs ranks and shows (docs/product.md §5), for a grid bot or a range grid alike. */
export interface RankStats {
  runtimeMs: number;
  roiPct: number;
  apyPct: number;
  investment: number;
  datewiseProfit: Record<string, number> | null;
  maxDrawdownPct: number | null;
}

/**
 * A bot's Copy BOTs figures at `price`. A range grid's ROI is its total PnL (grid profit and floating PnL, as its
 * card shows) on the investment, its APY from that ROI; it keeps no profit by date nor drawdown.
 */
export function rankStatsAt(row: BotView, price: number, nowMs: number): RankStats {
  if (row.botType !== 'range') return statsAt(row, price, nowMs);
  const s = rangeStateOf(row);
  const runtimeMs = Math.max(0, nowMs - s.stats.startTimeMs);
  const roi = roiPct(rangePnl(s, price, exitFeePctOf(row)).totalPnl, s.investment);
  return {
    runtimeMs,
    roiPct: roi,
    apyPct: aprPct(roi, runtimeMs),
    investment: s.investment,
    datewiseProfit: null,
    maxDrawdownPct: null,
  };
}

/** Recent closes for the card's sparkline, cached briefly per market (many cards share a pair). */
export class SparklineCache {
  private readonly cache = new Map<string, { atMs: number; points: number[] }>();
  constructor(
    private readonly feed: MarketFeed,
    private readonly ttlMs = 10_000,
  ) {}

  async points(symbol: string, market: 'spot' | 'future', nowMs: number): Promise<number[]> {
    const key = `${market}:${symbol}`;
    const hit = this.cache.get(key);
    if (hit && nowMs - hit.atMs < this.ttlMs) return hit.points;
    const candles = await this.feed.candles(symbol, market, '15m', 32).catch(() => []);
    const points = candles.map((c) => Number(c.close));
    this.cache.set(key, { atMs: nowMs, points });
    return points;
  }
}

export function toBotSummary(
  row: BotView,
  price: number,
  nowMs: number,
  sparkline: number[],
  trades24h: number,
): BotSummary {
  const state = gridState(row);
  const s = statsAt(row, price, nowMs);
  const settings = state.settings;
  const { datewiseprofit, levels, skippedBuy } = summaryPartsOf(row);
  return {
    id: row.id,
    name: row.symbol,
    botType: gridTypeOf(row),
    category: row.category,
    strategy_name: row.strategyName,
    status: row.status,
    haltReason: row.haltReason,
    stopReason: row.stopReason,
    liveprice: price,
    sparklineData: sparkline,
    runtime: round(s.runtimeMs / DAY_MS, 2),
    roi: round(s.roiPct, 4),
    apy: round(s.apyPct, 4),
    investment: round(s.investment),
    pnl: round(s.bookedProfit),
    unrealizedPnl: round(s.unrealizedPnl),
    totalPnl: round(s.totalPnl),
    trades24h,
    totalTrades: s.trades,
    grid_no: s.gridNo,
    total_grid: s.totalGrid,
    datewiseprofit,
    leverage: row.leverage,
    last_buying_price: s.lastBuyingPrice,
    avg_buy_price: s.avgBuyPrice === null ? null : round(s.avgBuyPrice),
    purchased_qty: round(s.purchasedQty),
    botstartdate: row.createdAt.toISOString(),
    overbuy_protection_value: settings.overbuy.value,
    is_protection_active: settings.overbuy.active,
    profitbookat: settings.profitBookPct,
    sell_all_and_pause_at_price: settings.pausePrice,
    restart_at_price: settings.restartPrice,
    stoploss_and_stopbot_at_price: settings.stoplossPrice,
    liquidationPrice: s.liquidationPrice,
    tradeType: row.botType === 'scalping' ? 'scalp' : 'multigrid',
    skippedBuy,
    dust: dustOf(row.symbol, state.account.dustQty, price),
    levels,
  };
}

/** The parts of a card that depend on the bot's state alone, not on the price or the time. */
const summaryPartsOf = perState((row: BotView) => {
  const state = gridState(row);
  const datewise = state.stats.datewiseProfit;
  return {
    datewiseprofit: Object.fromEntries(Object.entries(datewise).map(([day, v]) => [day, round(v)])),
    levels: roundLevels(botLevels(state)),
    skippedBuy: state.skippedBuy
      ? {
          grid: state.skippedBuy.grid,
          notional: round(state.skippedBuy.notional),
          minNotional: state.skippedBuy.minNotional,
          since: new Date(state.skippedBuy.timeMs).toISOString(),
        }
      : null,
  };
});

/** The engine's levels (docs/trading-rules.md §2.2, §2.3), rounded like every price of the summary. */
function roundLevels(levels: BotLevels): BotLevels {
  return {
    ...levels,
    nextBuy: levels.nextBuy && { ...levels.nextBuy, price: round(levels.nextBuy.price) },
    takeProfits: levels.takeProfits.map((tp) => ({ ...tp, price: round(tp.price) })),
  };
}

/** The bot's recorded dust (docs/trading-rules.md §3): the base coin is the pair without its USDT. */
function dustOf(symbol: string, qty: number, price: number): DustView | null {
  if (!(qty > 0)) return null;
  return { qty, asset: symbol.replace(/USDT$/, ''), value: round(qty * price) };
}

export function toHistoryRow(row: BotRow, nowMs: number): Omit<HistoryRow, 'exchange'> {
  // Stopped without a sale, a futures bot's open lots are a position still on the exchange: nothing closed,
  // until the position is closed from the Positions panel (the lots stay in the state; the close is recorded).
  const holdsLots = row.category === 'Future' && (engineStateOf(row).lots?.length ?? 0) > 0;
  const positionLeftOpen = holdsLots && !row.positionClosedAt;
  const loss = Number(row.lossBook);
  const closed = Number(row.closedPrice ?? 0);
  const s = statsAt(row, closed, row.stoppedAt?.getTime() ?? nowMs);
  const runtimeMs = (row.stoppedAt?.getTime() ?? nowMs) - row.createdAt.getTime();
  return {
    id: row.id,
    symbol: row.symbol,
    strategy_name: row.strategyName || 'System Strategy',
    runtime: round(runtimeMs / DAY_MS, 2),
    investment: round(s.investment),
    profit: round(Number(row.profitBook)),
    lossbook: loss < 0 ? round(loss) : null,
    totalpnl: round(s.totalPnl),
    roi: round(s.roiPct, 4),
    botstarttime: row.createdAt.toISOString(),
    botstoptime: row.stoppedAt?.toISOString() ?? null,
    stopAt: positionLeftOpen ? null : closedPriceOf(row, holdsLots),
    trades: s.trades,
    category: row.category,
    stopReason: row.stopReason,
    positionLeftOpen,
  };
}

/** The price a stopped range grid is valued at: its closing price, else (never started) its start price. */
export function rangeClosePrice(row: BotView): number {
  return row.closedPrice === null ? rangeStateOf(row).stats.startPrice : Number(row.closedPrice);
}

/**
 * A stopped range grid as a History row (docs/trading-rules.md §2.6): `profit` is its grid profit, `totalpnl`
 * grid profit and the held coin (or position) valued at the closing price less the taker fee of selling it,
 * `trades` every fill, `matchedTrades` the matched buy/sell pairs. A futures grid stopped without closing its
 * position has left it open on the exchange.
 */
export function toRangeHistoryRow(row: BotRow, nowMs: number): Omit<HistoryRow, 'exchange'> {
  const s = reviveRange(row.engineState as unknown as RangeState);
  const stoppedMs = row.stoppedAt?.getTime() ?? nowMs;
  const positionLeftOpen = (s.futures?.pos ?? 0) !== 0 && !row.positionClosedAt;
  const pnl = rangePnl(s, rangeClosePrice(row), exitFeePctOf(row));
  return {
    id: row.id,
    symbol: row.symbol,
    strategy_name: row.strategyName || `${row.category === 'Future' ? 'Futures' : 'Spot'} Grid`,
    runtime: round((stoppedMs - row.createdAt.getTime()) / DAY_MS, 2),
    investment: round(s.investment),
    profit: round(pnl.gridProfit),
    lossbook: null,
    totalpnl: round(pnl.totalPnl),
    roi: round(roiPct(pnl.totalPnl, s.investment), 4),
    botstarttime: row.createdAt.toISOString(),
    botstoptime: row.stoppedAt?.toISOString() ?? null,
    stopAt: positionLeftOpen ? null : closedPriceOf(row, (s.futures?.pos ?? 0) !== 0),
    trades: s.stats.trades,
    category: row.category,
    stopReason: row.stopReason ?? s.stopReason,
    positionLeftOpen,
    gridProfit: round(pnl.gridProfit),
    matchedTrades: s.stats.matchedTrades,
  };
}

/**
 * History's Closed price: where the position closed when the Positions panel closed it, else the price at the
 * stop. The bot's PnL stays valued at the stop (its own figures; the panel's close is the account's).
 */
function closedPriceOf(row: BotRow, holdsLots: boolean): number | null {
  const price = holdsLots && row.positionClosedPrice ? row.positionClosedPrice : row.closedPrice;
  return price === null ? null : Number(price);
}

const KIND_NAMES = { multigrid: 'Multigrid', scalping: 'Scalping' } as const;

/**
 * "Multigrid 10": the kind and grid count of a bot's strategy, never the name its owner typed; a range grid's
 * range, grid count and spacing: "Grid 1900–2100 · 4 grids · arithmetic".
 */
export function strategyShapeOf(row: BotRow): string {
  if (row.botType === 'range') {
    const p = rangeStateOf(row).params;
    return `Grid ${p.lower}–${p.upper} · ${p.grids} grids · ${p.mode}`;
  }
  const snapshot = row.strategySnapshot as { No_of_order?: number };
  const grids = Number(snapshot?.No_of_order) || gridState(row).params.grids;
  return `${KIND_NAMES[gridTypeOf(row)]} ${grids}`;
}

/**
 * What Copy BOTs hands over of a range grid's strategy (docs/trading-rules.md §2.6): the grid and its stops,
 * never the name its owner typed, nor the start trigger (the running grid has passed it; a copy starts at once).
 */
export function copyableRangeParams(row: BotRow): Record<string, unknown> {
  const { name: _name, trigger: _trigger, ...params } = rangeStateOf(row).params;
  return params;
}

/**
 * A Copy BOTs card (docs/product.md §5): anonymous, `copyToken` stands for the bot. `profit7d`: what it booked in
 * the last 7 UTC days when its state keeps no profit by date (a range grid: its matched pairs' grid profit).
 */
export function toTopBot(
  row: BotRow,
  price: number,
  nowMs: number,
  sparkline: number[],
  extra: { copyToken: string; key: string; copyCount: number; demo: boolean; profit7d?: number },
): TopBot {
  const s = rankStatsAt(row, price, nowMs);
  const profit7d = s.datewiseProfit ? profitOfLastDays(s.datewiseProfit, nowMs, 7) : (extra.profit7d ?? 0);
  return {
    copyToken: extra.copyToken,
    key: extra.key,
    name: row.symbol,
    category: row.category,
    botType: row.botType === 'range' ? 'range' : gridTypeOf(row),
    shape: strategyShapeOf(row),
    strategy:
      row.botType === 'range'
        ? copyableRangeParams(row)
        : (row.strategySnapshot as unknown as Record<string, unknown>),
    leverage: row.leverage,
    runtime: round(s.runtimeMs / DAY_MS, 2),
    roi: round(s.roiPct, 4),
    apy: round(s.apyPct, 4),
    pnl7dPct: round(s.investment > 0 ? (profit7d / s.investment) * 100 : 0, 4),
    maxDrawdownPct: s.maxDrawdownPct === null ? null : round(s.maxDrawdownPct, 4),
    copyCount: extra.copyCount,
    demo: extra.demo,
    sparklineData: sparkline,
  };
}

/** The start of the UTC date `days − 1` days before `nowMs`'s: the last `days` UTC dates begin there. */
export function startOfLastDays(nowMs: number, days: number): number {
  return Math.floor(nowMs / DAY_MS) * DAY_MS - (days - 1) * DAY_MS;
}

/** Profit booked on the last `days` UTC dates, today included (datewiseProfit is keyed by UTC date). */
function profitOfLastDays(datewise: Record<string, number>, nowMs: number, days: number): number {
  let sum = 0;
  for (let d = 0; d < days; d += 1) sum += datewise[utcDateKey(nowMs - d * DAY_MS)] ?? 0;
  return sum;
}
