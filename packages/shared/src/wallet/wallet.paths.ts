/**
 * The exchange wallet's and the exchange API keys' paths, written once for the server's routes and the
 * web's calls; the spellings are the specification's (docs/spec/02-bots-wallet-account.md §7;
 * docs/architecture.md §4).
 */
export const walletApiPaths = {
  spotBalance: '/api/spotBalance',
  futuresBalance: '/api/futuresBalance',
  /** Ours: what running bots and cycles hold of each balance. */
  committedFunds: '/api/committedfunds',
  spotAssets: '/api/spotAssets',
  futuresAssets: '/api/futuresAssets',
  spotToFutures: '/api/transferspottofutures',
  futuresToSpot: '/api/transferfuturestospot',
  swapToUsdt: '/api/swaptousdt',
} as const;

/** Ours: the futures positions of the user's exchange account, and closing one. */
export const positionApiPaths = {
  list: '/api/positions',
  close: '/api/closeposition',
} as const;

/** API Setting: the user's exchange keys. */
export const apiKeyApiPaths = {
  /** The address to allow-list on the exchange. */
  serverIp: '/api/serverip',
  fetch: '/api/fetchkeys',
  /** Saves the keys, or removes them when both are null. */
  save: '/api/apikeys',
  checkConnection: '/api/checkConnection',
} as const;

/** Ours: the open orders of the user's exchange account, and canceling one. */
export const openOrderApiPaths = {
  list: '/api/openorders',
  cancel: '/api/cancelorder',
} as const;
