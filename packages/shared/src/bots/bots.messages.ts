/** Texts of Start New Bot (docs/spec/01-core-screens.md §5/§8) and the running bot pages (docs/spec/02-bots-wallet-account.md §5/§8); (ours) fills gaps. */
export const botMessages = {
  botTypeRequired: 'Select bot type is required.',
  categoryRequired: 'Select category is required.',
  pairRequired: 'Select pair is required.',
  strategyRequired: 'Select strategy is required.',
  amountNumber: 'Amount must be a number.',
  amountRequired: 'Amount is required.',
  amountMin: (min: number) => `Amount must be greater than or equal to $${min}.`,
  leverageRequired: 'Leverage is required.',
  leverageMin: 'Leverage must be at least 1x',
  leverageMax: 'Leverage cannot be more than 10x',
  leverageWhole: 'Leverage must be a whole number (1x to 10x).', // (ours)
  profitBookNumber: 'Profit book & stop at (%) must be a number.',
  profitBookRange: 'Profit book & stop at (%) must be between 1 and 1000.', // (ours)
  sellPauseNumber: 'Sell All And Pause Price must be a number.',
  restartNumber: 'Restart Price must be a number.',
  stoplossNumber: 'Stoploss Price must be a number.',
  insufficientForGrids: (grids: number, min: number) =>
    `Insufficient amount. Minimum required for ${grids} grids is $${min}.`,
  botStarting: 'Bot Starting...',
  startCreated: 'User request created successfully',
  insufficientBalance: 'Insufficient available balance',
  invalidKeys:
    'API key is incorrect or IP is not allowed. Please double-check your credentials and ensure your IP address is authorized.',
  startError: 'An error occurred',
  noResponse: 'No response from server. Please try again.',
  submitFailed: 'Failed to submit form',
  minimumFetchFailed: 'Failed to fetch minimum bot amount.',
  alreadyRunning: (pair: string) => `A bot is already running on ${pair}`,
  strategyNotFound: 'Strategy not found.', // (ours)
  notConnected: 'Connect your exchange API keys in API Setting first.', // (ours)
  botNotFound: 'Bot not found.', // (ours)
  botNotRunning: 'This bot is not running.', // (ours)
  botNotHalted: 'This bot was not paused by the system.', // (ours)
  resumed: 'The bot is trading again.', // (ours)
  missingLotsChoiceNeeded: 'Choose first: re-buy the missing quantity or drop the missing lots.', // (ours)
  notPausedForMissingCoins: 'This bot was not paused for coins missing from your account.', // (ours)
  rebuyUnaffordable: (qty: string, asset: string, needed: string, free: string) =>
    `Re-buying the missing ${qty} ${asset} needs ${needed} USDT, but only ${free} USDT is free in your spot wallet. Add USDT or drop the missing lots.`, // (ours)
  resumeNoAnswer: 'The bot did not answer in time; it carries out your choice when it does.', // (ours)
  resumeUnderWay: 'Resume requested: the missing coins are being bought; the bot trades again once they are.', // (ours)
  notPricePaused: 'This bot is not paused at its pause price.', // (ours)
  resumedFromPause: 'The bot is trading again: it buys grid 1 at the market price.', // (ours)
  resumeFailed: 'Error resuming bot', // (ours)
  resumePausedWhileHalted: 'This bot was paused by the system: resume that pause first.', // (ours)
  addFundsMin: (min: number) => `Amount to add must be at least $${min}.`, // (ours)
  addFundsMax: (max: number) => `Amount to add cannot be more than $${max}.`, // (ours)
  fundsAdded: (amount: string, investment: string) =>
    `${amount} USDT added: the bot now invests ${investment} USDT.`, // (ours)
  addFundsFailed: 'Error adding funds to the bot', // (ours)
  addFundsStopping: 'This bot is stopping: funds cannot be added.', // (ours)
  stopped: 'Bot stopped successfully',
  stopFailed: 'Error stopping bot',
  stoppedSold: 'Bot stopped and sold successfully',
  stopSellFailed: 'Error stopping and selling bot',
  gridUpdated: 'Grid settings updated', // (ours: a range grid's stops and trailing)
  gridUpdateFailed: 'Error updating the grid settings', // (ours)
  stopRequested: 'Stop requested: the bot is selling and stops once the sale is filled.', // (ours)
  sltpUpdated: 'SLTP values updated successfully',
  sltpUpdateFailed: 'Error updating SLTP values',
  sltpReset: 'SLTP values reset successfully',
  sltpResetFailed: 'Error resetting SLTP values',
  pauseAboveLive: 'Pause Price must be greater than the current live price',
  stoplossBelowLive: 'Stop loss Price must be less than the current live price',
  restartBelowPause: 'Restart Price must be less than the Pause Price', // (ours)
  priceNumber: 'Price must be a positive number.', // (ours)
  profitBookSaved: 'Profit book & stop value saved successfully',
  profitBookReset: 'Profit book & stop value has been reset successfully',
  profitBookFailed: 'Error saving/resetting Profit book value',
  profitBookMin: 'Value cannot be negative or less than 1.',
  profitBookMax: 'Value cannot be more than 1000.', // (ours)
  overbuySaved: 'Overbuy Grid Protection value saved successfully',
  overbuyReset: 'Overbuy Grid Protection value has been reset successfully',
  overbuyFailed: 'Error saving/resetting Overbuy Grid Protection',
  overbuyRange: (n: number) => `Please enter a valid integer between 1 and ${n} for Overbuy Grid Protection.`,
} as const;

/** docs/spec/01-core-screens.md §5: $100 under 10 grids, else $10 per grid. */
export function minimumForGrids(grids: number): number {
  return grids < 10 ? 100 : grids * 10;
}

/** The least and most USDT one Add funds may add to a running bot (ours). */
export const ADD_FUNDS_MIN_USDT = 10;
export const ADD_FUNDS_MAX_USDT = 1_000_000;

/** docs/spec/01-core-screens.md §9: the server's minimum bot amount default. */
export const DEFAULT_MINIMUM_BOT_AMOUNT = 100;
