/**
 * @gridbot/engine — pure trading logic (docs/trading-rules.md §2): Multigrid, Scalping and Cycle state machines,
 * fills, PnL/ROI/APR, statistics, start validation, and the backtest runner.
 */
export {
  CANDLE_HEADER,
  type Candles,
  candleTicks,
  parseCandlesCsv,
} from './backtest/candles';
export { formatBacktestTable } from './backtest/format';
export { type GridBacktestInput, type GridBacktestStart, startGridBacktest } from './backtest/grid-backtest';
export { firstTickBeyond, nextEventLevel, type TickGrid, tickGridOf } from './backtest/path-line';
export {
  RangeBacktest,
  type RangeBacktestInput,
  type RangeBacktestOptions,
  type RangeBacktestResult,
  type RangeBacktestStart,
  type RangeBacktestSummary,
  type RangeFillRecord,
  runRangeBacktest,
  startRangeBacktest,
} from './backtest/range-backtest';
export { firstRestingFill, type RestingOrder, restingFill } from './backtest/range-fills';
export { type BacktestReport, dailyRatios, type EquityPoint } from './backtest/report';
export {
  type BacktestOptions,
  type BacktestResult,
  type BacktestSummary,
  type FillRecord,
  type FundingRates,
  PathBacktest,
  runBacktest,
} from './backtest/run-backtest';
export {
  addFunds,
  type ExchangeLiquidation,
  editCycle,
  liquidatedByExchange,
  type PriceTriggers,
  resumePaused,
  setNewCyclesAllowed,
  setOverbuyProtection,
  setPriceTriggers,
  setProfitBook,
  stop,
  stopAndSell,
} from './commands';
export { botLevels } from './core/bot-levels';
export {
  type BotSettings,
  type CreateGridBotInput,
  createGridBot,
  DEFAULT_SETTINGS,
  type GridBotState,
  type TrailingBuy,
} from './core/grid-bot.state';
export type {
  BotEvent,
  CycleEvent,
  CycleStatus,
  LotEvent,
  LotPhase,
  TransitionTable,
} from './core/transitions';
export { BOT_STATUS, CYCLE_STATUS, LOT_PHASE, transition } from './core/transitions';
export { utcDateKey, utcIso } from './core/utc-date';
export {
  applyFill,
  applyFillDetailed,
  applyFunding,
  applyIntentDustDetailed,
  applyIntentFailed,
  type EngineState,
  step,
} from './engine';
export { InvariantError } from './errors';
export type { FillOutcome } from './fills/grid-fill';
export type { ClosedLot } from './fills/ledger';
export { simulateFill } from './fills/simulate-fill';
export {
  FUNDING_INTERVAL_MS,
  FUNDING_JITTER_MS,
  fundingPayment,
  fundingTimeAtOrBefore,
  fundingTimesBetween,
} from './funding';
export { dropMissingLots, missingQty, rebuyMissing, rebuyOrder } from './missing-lots';
export * from './money';
export {
  aprPct,
  equityAt,
  lotProfit,
  marginOf,
  roiPct,
  totalPnl,
  unrealizedPnl,
} from './pnl/pnl';
export { type BotStats, botStats } from './pnl/stats';
export { compileRules, type EngineRules } from './rules';
export {
  type CreateCycleInput,
  type CycleParams,
  type CycleState,
  createCycle,
  cycleProgress,
} from './strategies/cycle/cycle.state';
export { stepCycle } from './strategies/cycle/cycle.step';
export { type CycleInput, parseCycle } from './strategies/cycle/parse-cycle';
export { stepMultigrid } from './strategies/multigrid/multigrid.step';
export {
  type ParseResult,
  parseStrategy,
  type StoredStrategy,
  strategyFrom,
} from './strategies/parse-strategy';
export { editRange, type RangeEdit, reviveRange, stopRange } from './strategies/range/range.commands';
export {
  applyRangeFill,
  type RangeFillOutcome,
  type RestEnded,
  rangePnl,
  restEnded,
} from './strategies/range/range.fill';
export { applyRangeFunding, liquidationDue } from './strategies/range/range.futures';
export { misplacedOrders, type RelaidGrid, relayLost } from './strategies/range/range.lost';
export {
  type CreateRangeInput,
  createRange,
  type FilledPart,
  isOutOfRange,
  type RangeFutures,
  type RangeOrder,
  type RangeState,
  type RangeStatus,
  type RangeStopReason,
  rangeBand,
  rangeBounds,
} from './strategies/range/range.state';
export {
  freeBase,
  freeQuote,
  type RangeStepResult,
  startRefusedText,
  stepRange,
} from './strategies/range/range.step';
export { rangeFilterProblems } from './strategies/range/range-filters';
export {
  type LevelSpec,
  levelPrice,
  levelSpec,
  RANGE_MAKER_FEE_PCT,
  rangeStartPrice,
  rangeStartProblems,
} from './strategies/range/range-levels';
export {
  previewRange,
  type RangePreview,
  type RangePreviewInput,
  type RangePreviewResult,
} from './strategies/range/range-preview';
export {
  type RangeSuggestInput,
  type RangeSuggestion,
  SUGGEST_FEE_MARGIN,
  suggestRange,
} from './strategies/range/range-suggest';
export { stepScalping } from './strategies/scalping/scalping.step';
export {
  type GridParams,
  MAX_GRIDS,
  type MultigridParams,
  type ScalpingParams,
} from './strategies/strategy-params';
export type * from './types';
export { type StartProblem, startCostWithFees, validateCycleStart, validateGridStart } from './validate';
