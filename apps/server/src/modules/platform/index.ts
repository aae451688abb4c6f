// What other modules may use of this one; they import nothing else from it (docs/architecture.md §2).
export { type ChainRuntime, startDepositWatcher } from './deposits.service';
export { offsetOf, toPage } from './paging';
export { platformRoutes } from './platform.routes';
export { levelRewards } from './referral.service';
export { listPlans, subscribe, toPlan } from './subscriptions.service';
export { walletFieldsOf } from './wallet-fields';
export { toWithdrawRecord } from './withdrawals.service';
