/**
 * Test helpers of @gridbot/exchange (import '@gridbot/exchange/testing'; they import vitest, so never
 * from production code). packages/db runs `paperStoreContract` against its SQL store.
 */
export { type ExchangeContractHarness, eventually, exchangeContract, freeOf } from './exchange-contract';
export { BinanceReject, FakeBinanceBook, type LeverageBracket } from './fake-binance-book';
export {
  type FollowedPair,
  followPrices,
  type PricedDouble,
  type PriceFollower,
} from './fake-binance-market';
export { type FakeKeyPermissions, tradingKeyPermissions } from './fake-binance-permissions';
export {
  BINANCE_DOCUMENTED_LIMITS,
  type FakeBinanceLimits,
  FakeBinanceServer,
  type Fault,
  type RecordedRequest,
  TIMEOUT_UNKNOWN,
} from './fake-binance-server';
export { BybitReject, FakeBybitBook } from './fake-bybit-book';
export { type BybitFault, type BybitRecordedRequest, FakeBybitServer } from './fake-bybit-server';
export { FakeClock } from './fake-clock';
export { FakeOkxBook, OkxReject } from './fake-okx-book';
export { FakeOkxServer, type OkxFault, type OkxRecordedRequest, okxInstId } from './fake-okx-server';
export { ManualFeed } from './manual-feed';
export { paperStoreContract, sampleOrder } from './paper-store-contract';
export { virtualBudget } from './virtual-budget';
export { VirtualTime } from './virtual-time';
