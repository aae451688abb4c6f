/**
 * Texts of the platform area: Subscription, Wallet Deposit, Withdraw (docs/spec/02-bots-wallet-account.md §5/§8) and the Referral
 * program (docs/spec/01-core-screens.md §2/§8). Spec texts are exact; lines marked (ours) fill gaps the spec leaves open.
 */
export const platformMessages = {
  // Withdraw (docs/spec/02-bots-wallet-account.md §5)
  amountRequired: 'Amount is required.',
  addressRequired: 'Address is required.',
  // Rewards-to-USDT swap (docs/spec/02-bots-wallet-account.md §5)
  amountNumber: 'Amount must be a number.',
  amountPositive: 'Amount must be a positive number.',
  /** 'Amount must be less than or equal to {balance}.' */
  amountAtMost: (balance: string) => `Amount must be less than or equal to ${balance}.`,
  // Referral program (docs/spec/01-core-screens.md §2)
  referralText:
    'Share your referral ID with your friends and family. When they join and purchase a subscription, you can earn up to 10% of the subscription amount as a reward.',
  noRecords: 'No Records Found.',
  loading: 'Loading...',
  addressCopied: 'Address copied successfully!',

  // Our own texts: the spec shows none for these outcomes.
  planRequired: 'Select a plan.', // (ours)
  planUnknown: 'This plan does not exist.', // (ours)
  planInactive: 'This plan is no longer offered.', // (ours)
  /** A wallet cannot pay its part of a plan's price. */
  insufficientBalance: (token: string, need: string, have: string) =>
    `Insufficient ${token} balance: this plan costs ${need} ${token} and your ${token} wallet holds ${have}. Deposit ${token} first.`, // (ours)
  subscribed: 'Subscription activated.', // (ours)
  addressInvalid: 'Enter a valid BEP-20 address (0x followed by 40 hexadecimal characters).', // (ours)
  addressChecksum: 'The address checksum is wrong. Copy the address exactly as your wallet shows it.', // (ours)
  addressZero:
    'The zero address belongs to no one: anything sent there is lost. Enter your own wallet address.', // (ours)
  /** Withdrawals below the configured minimum. */
  withdrawMin: (min: string) => `The minimum withdrawal is ${min} USDT.`, // (ours)
  /** The configured fee is taken from the amount, so the amount must exceed it. */
  withdrawFee: (fee: string) => `The amount must be more than the withdrawal fee of ${fee} USDT.`, // (ours)
  withdrawRequested: 'Withdrawal requested. It will be sent after review.', // (ours)
  swapDone: 'Rewards transferred to your USDT wallet.', // (ours)
  depositsNotConfigured: 'Deposits are not configured on this server.', // (ours)
  simulatedDepositMax: 'A simulated deposit is at most 100000.', // (ours)
  simulatedDepositOff: 'Simulated deposits exist only on a paper install without a chain connection.', // (ours)
  simulatedDepositCredited: (amount: string, token: string) =>
    `Simulated deposit of ${amount} ${token} credited. No real funds were moved.`, // (ours)
  listening: 'Listening for your deposit.', // (ours)
  /** Answer of /wallet/usdt/deposit/sync. */
  synced: (credited: number) =>
    credited === 0
      ? 'Deposit status synced. No new deposits confirmed yet.'
      : `Deposit status synced. ${credited} new deposit${credited === 1 ? '' : 's'} credited.`, // (ours)
  profitLimitReached:
    'Your profit limit is used up. Buy a subscription on the Subscription page to start a new bot or cycle.', // (ours)
  unauthorized: 'Please sign in again.', // (ours)
  notFound: 'Not found', // (ours)
  serverError: 'Something went wrong. Please try again.', // (ours)
  // Administration (beyond the spec)
  withdrawalNotPending: 'This withdrawal has already been decided.', // (ours)
  payoutOutcomeUnknown:
    'The hot wallet already tried to pay this withdrawal and its outcome is unknown. Check the hot wallet on the chain, then approve with the transaction hash, or reject if nothing was sent.', // (ours)
  txHashRequired: 'Enter the transaction hash (0x followed by 64 hexadecimal characters).', // (ours)
  withdrawalApproved: 'Withdrawal marked as sent.', // (ours)
  withdrawalRejected: 'Withdrawal rejected and refunded.', // (ours)
  levelsInvalid: 'Levels must be numbered 1, 2, 3, … without gaps, each with a percentage from 0 to 100.', // (ours)
  levelsSaved: 'Level table saved.', // (ours)
  planSaved: 'Plan saved.', // (ours)
  planNameRequired: 'Plan name is required.', // (ours)
  priceInvalid: 'Prices and the profit limit must be decimal numbers of 0 or more.', // (ours)
  planNeedsPrice: 'A plan needs a price in at least one of USDT, IFC or IFX.', // (ours)
  planNeedsCredit: 'A plan must grant a profit limit above 0.', // (ours)
} as const;
