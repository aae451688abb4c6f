// Binance and Bybit (ccxt, slow to load) are not here: `@gridbot/exchange/binance` and `/bybit`, imported only when configured.

export { type BudgetRedis, RedisBudgetCounter } from './budget/redis-budget-counter';
export {
  type BudgetClock,
  type BudgetCost,
  type BudgetCounter,
  type BudgetRequest,
  type BudgetWindow,
  FairRequestBudget,
  MemoryBudgetCounter,
  type RequestBudget,
  systemBudgetClock,
  type TakeAnswer,
  type TakeRequest,
} from './budget/request-budget';
export type { BinanceExchangeOptions } from './ccxt/binance-exchange';
export type { BinanceFeedOptions } from './ccxt/binance-feed';
export type { BybitExchangeOptions } from './ccxt/bybit-exchange';
export type { ApiKeyPermissions } from './ccxt/key-permissions';
export type { RetryPolicy } from './ccxt/retry';
export * from './exchange-error';
export * from './exchange-port';
export type { NumCandle } from './feeds/candle-book';
export { type Clock, systemClock } from './feeds/clock';
export {
  type CreateMarketFeedOptions,
  createMarketFeed,
  type MarketFeedKind,
} from './feeds/create-market-feed';
export { RelayFeed, type RelayFeedOptions } from './feeds/relay-feed';
export { ReplayFeed, type ReplayFeedOptions } from './feeds/replay-feed';
export { SimFeed, type SimFeedOptions } from './feeds/sim-feed';
export { SIM_PAIR_PARAMS, type SimPairParams } from './feeds/sim-params';
export {
  constantFundingRates,
  embeddedFunding,
  type FundingHistory,
  type FundingQuery,
  type FundingRates,
  replayFunding,
  replayFundingRates,
} from './funding/funding-rates';
export {
  type CandleHistory,
  embeddedHistory,
  mergeColumns,
  replayHistory,
} from './history/candle-history';
export * from './market-feed';
export * from './order-rules';
export { MemoryPaperStore } from './paper/memory-paper-store';
export {
  DEFAULT_PAPER_START_USDT,
  type PaperEvent,
  PaperExchange,
  type PaperExchangeOptions,
  type PaperFund,
} from './paper/paper-exchange';
export type * from './paper/paper-store';
