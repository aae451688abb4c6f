// What other modules may use of this one; they import nothing else from it (docs/architecture.md §2).
export {
  deleteApiKeys,
  findApiKeys,
  findStoredPermissions,
  keyOwnersAfter,
  saveApiKeys,
  storePermissions,
} from './api-keys.repo';
export { type ExchangeGateway, isLiveVenue, paperGateway, type UserKeys } from './exchange-gateway';
export { setUpFutures } from './futures-setup';
export {
  createCandleHistory,
  createExchangeGateway,
  createFundingHistory,
  createFundingRates,
  createMarketFeed,
} from './market-setup';
export {
  exchangeKeys,
  isPaperVenue,
  loadUserKeys,
  PAPER_ACCOUNT_KEYS,
  userExchange,
  userVenue,
  userVenueName,
} from './user-exchange';
