import type { PlatformToken } from './platform.schema';

/** Every platform answer (docs/architecture.md §4): `code` '0000' with `data`, else a failure code with `msg`. */
export type PlatformResponse<T> = PlatformSuccess<T> | PlatformFailure;
export interface PlatformSuccess<T> {
  code: '0000';
  data: T;
  msg: string;
}
export interface PlatformFailure {
  code: string;
  msg: string;
  /** Same text as msg (docs/spec/02-bots-wallet-account.md §8 reads `error` or `msg`). */
  error: string;
  data: null;
}

/** Answer of every platform list call. `current` is 1-based. */
export interface PlatformPage<T> {
  records: T[];
  current: number;
  pages: number;
  total: number;
}

/** Money is a decimal string everywhere in the platform area. */
export type DecimalString = string;

/** A subscription plan (docs/spec/02-bots-wallet-account.md §3): price per token (0 = not charged) and the profit limit it grants. */
export interface SubscriptionPlan {
  id: string;
  name: string;
  usdtToken: DecimalString;
  ifcToken: DecimalString;
  ifxToken: DecimalString;
  /** Profit limit the plan adds. */
  availableCredit: DecimalString;
  active: boolean;
  createdAt: string;
}
export interface SubscriptionPlansData {
  plans: SubscriptionPlan[];
}

/** docs/spec/02-bots-wallet-account.md §4: Pending (status unknown, e.g. still loading), Active, In-Active. */
export type SubscriptionStatus = 'Pending' | 'Active' | 'In-Active';

/** A row of Subscription History (No, Plan, Profit Limit, Date). */
export interface SubscriptionRecord {
  id: string;
  planId: string;
  planName: string;
  usdtToken: DecimalString;
  ifcToken: DecimalString;
  ifxToken: DecimalString;
  /** Profit limit this purchase granted. */
  availableCredit: DecimalString;
  /** Active while the user's profit limit lasts and this is the latest purchase; In-Active after. */
  status: Exclude<SubscriptionStatus, 'Pending'>;
  createdAt: string;
}

/** A row of Deposit History (No, Coin, Amount, Transaction Hash, Date). */
export interface DepositRecord {
  id: string;
  token: PlatformToken;
  amount: DecimalString;
  transactionHash: string;
  createdAt: string;
}

export type WithdrawStatus = 'PENDING' | 'SENT' | 'REJECTED';
/** A row of Withdraw History (No, Amount, Wallet Address, Status, Date). */
export interface WithdrawRecord {
  id: string;
  /** Amount taken from the rewards balance. */
  amount: DecimalString;
  /** Fee kept from it; the address receives amount − fee. */
  fee: DecimalString;
  toAddress: string;
  status: WithdrawStatus;
  txHash: string | null;
  createdAt: string;
  /** Why the administrator rejected it (the amount went back to the rewards balance), or null. */
  rejectReason: string | null;
}

/** Withdraw History's page, with the fee a new withdrawal pays, so the form can say it before sending. */
export interface WithdrawHistoryPage extends PlatformPage<WithdrawRecord> {
  withdrawFee: DecimalString;
}

/** A row of 'Reward by Level' (docs/spec/01-core-screens.md §3). */
export interface LevelReward {
  level: number;
  rewardPercentage: number;
}
export interface LevelRewardsData {
  rewards: LevelReward[];
}

/** A row of 'Reward History' (docs/spec/01-core-screens.md §3). */
export interface RewardRecord {
  id: string;
  amount: DecimalString;
  percentage: number;
  fromUserName: string;
  /** Level of the referred user below the earner (1 = referred directly). */
  level: number;
  createdAt: string;
}

/** Answer of /wallet/usdt/deposit/listen. */
export interface DepositListenData {
  usdtListenExpiredInSeconds: number;
  /** ISO time the window ends. */
  listeningUntil: string;
}

/**
 * Platform wallet fields carried in the session's user data (docs/spec/02-bots-wallet-account.md §3). Balances are decimal strings;
 * `qrCode` is null when deposits are not configured on the server.
 */
export interface PlatformWalletFields {
  usdtToken: DecimalString;
  ifcToken: DecimalString;
  ifxToken: DecimalString;
  usdtRewardToken: DecimalString;
  /** Profit limit remaining (docs/product.md §5). */
  availableCredit: DecimalString;
  isActiveSubscription: boolean;
  userCode: string;
  /** The user's BEP-20 deposit address: `value` is the address, `base64` a PNG data URL of its QR code. */
  qrCode: { value: string; base64: string } | null;
}

/** Subscription Status card: undefined (not loaded) shows Pending. */
export function subscriptionStatusOf(isActiveSubscription: boolean | undefined): SubscriptionStatus {
  if (isActiveSubscription === undefined) return 'Pending';
  return isActiveSubscription ? 'Active' : 'In-Active';
}

/** Admin views (beyond the spec). */
export interface AdminWithdrawRecord extends WithdrawRecord {
  userId: string;
  username: string;
  email: string;
  decidedAt: string | null;
}
export interface AdminUserRecord {
  id: string;
  email: string;
  username: string;
  role: 'user' | 'admin';
  userCode: string;
  referredByUserCode: string | null;
  usdtToken: DecimalString;
  ifcToken: DecimalString;
  ifxToken: DecimalString;
  usdtRewardToken: DecimalString;
  availableCredit: DecimalString;
  createdAt: string;
}
export interface AdminActionRecord {
  id: string;
  adminEmail: string;
  action: string;
  target: string | null;
  details: unknown;
  createdAt: string;
}
