// What other modules may use of this one; they import nothing else from it (docs/architecture.md §2).
export {
  type Account,
  applyChanges,
  ensureWallet,
  findWallet,
  findWalletAndSubscription,
  InsufficientBalanceError,
} from './ledger.repo';
export { platformCredit } from './platform-credit';
