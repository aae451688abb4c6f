/**
 * The platform service's paths (every call a POST with the `{ code, data, msg }` envelope), written once
 * for the server's routes and the web's calls (docs/spec/02-bots-wallet-account.md §7; docs/architecture.md §4).
 */
export const platformApiPaths = {
  plans: '/platform/subscription/plans',
  subscriptions: '/platform/subscription/list',
  subscribe: '/platform/subscription/create',
  deposits: '/platform/wallet/deposit/list',
  /** Opens the window in which a USDT deposit to the user's address is watched for. */
  depositListen: '/platform/wallet/usdt/deposit/listen',
  depositOptions: '/platform/wallet/deposit/options',
  /** Demo and tests only: credits a deposit without a chain. */
  depositSimulate: '/platform/wallet/deposit/simulate',
  depositSync: '/platform/wallet/usdt/deposit/sync',
  withdrawals: '/platform/withdraw/list',
  withdraw: '/platform/withdraw/create',
  swapReward: '/platform/swap/usdt-reward/create',
  levelRewards: '/platform/level-income/level-reward',
  rewardHistory: '/platform/level-income/list',
} as const;
