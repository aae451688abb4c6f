/** Texts of Start Cycle (docs/spec/02-bots-wallet-account.md §5/§8 Cycles); (ours) fills what the spec leaves to the server. */
export const cycleMessages = {
  starting: 'Cycle Starting...',
  startError: 'An error occurred while starting the cycle.',
  updated: 'Cycle updated successfully',
  updateFailed: 'Failed to update cycle',
  updateError: 'An error occurred while saving changes.',
  stopped: 'Cycle stopped successfully',
  stopFailed: 'Failed to stop cycle',
  stopError: 'An error occurred while stopping the cycle.',
  stoppedSold: 'Cycle stopped and sold successfully',
  stopSellFailed: 'Failed to stop and sell cycle',
  stopSellError: 'An error occurred while stopping and selling the cycle.',
  stopRequested: 'Stop requested: the cycle is selling and stops once the sale is filled.', // (ours)
  stopLossAboveBuy: 'Stop loss cannot be more than the buy price.',
  categoryRequired: 'Category is required.', // (ours)
  pairRequired: 'Pair is required.', // (ours)
  amountRequired: 'Amount is required.', // (ours)
  amountNumber: 'Amount must be a number.', // (ours)
  amountMin: (min: number) => `Amount must be at least ${min} USDT.`, // (ours)
  buyPriceRequired: 'Buy price is required.', // (ours)
  sellPriceRequired: 'Sell price is required.', // (ours)
  priceNumber: 'Price must be a positive number.', // (ours)
  buyBelowSell: 'Buy price must be below the sell price.', // (ours)
  cycleCountRequired: 'Cycle count is required.', // (ours)
  cycleCountRange: 'Cycle count must be a whole number from 1 to 1000.', // (ours)
  leverageRange: 'Leverage must be a whole number from 1 to 10.', // (ours)
  cycleNotFound: 'Cycle not found.', // (ours)
  notRunning: 'This cycle is not running.', // (ours)
  notHolding: 'This cycle holds nothing to sell.', // (ours)
  notHalted: 'This cycle was not paused by the system.', // (ours)
  resumed: 'The cycle is trading again.', // (ours)
  notPausedForMissingCoins: 'This cycle was not paused for coins missing from your account.', // (ours)
  resumeFailed: 'Failed to resume cycle', // (ours)
  resumeError: 'An error occurred while resuming the cycle.', // (ours)
  cycleCountDone: (done: number) => `Cycle count must be more than the ${done} cycles already completed.`, // (ours)
} as const;

/** docs/spec/02-bots-wallet-account.md §9: suggested values from the live price. */
export const CYCLE_SUGGESTION = { buy: 0.95, sell: 1.05, stopLoss: 0.8 } as const;
export const MAX_CYCLE_COUNT = 1000;
