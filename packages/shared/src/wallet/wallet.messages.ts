/** Texts of API Setting (docs/spec/01-core-screens.md §5/§8) and the Wallet Dashboard (docs/spec/02-bots-wallet-account.md §5/§8); (ours) fills gaps. */
export const walletMessages = {
  apiKeyRequired: 'API Key is required.',
  secretKeyRequired: 'Secret Key is required.',
  apiKeyMax: 'API Key must be at most 128 characters long', // (ours)
  secretKeyMax: 'Secret Key must be at most 128 characters long', // (ours)
  passphraseRequired: 'Passphrase is required for an OKX key.', // (ours)
  passphraseMax: 'Passphrase must be at most 128 characters long', // (ours)
  bothOrNeither: 'Send both keys to connect, or both as null to disconnect.', // (ours)
  exchangeUnknown: 'Choose Binance, Bybit or OKX.', // (ours)
  exchangeUnavailable: (name: string) => `${name} keys are not accepted on this server.`, // (ours)
  keysSaved: 'API keys saved successfully',
  keysSaveFailed: 'Failed to save API settings. Please try again.',
  disconnected: 'Disconnected successfully',
  disconnectFailed: 'Failed to disconnect. Please try again.',
  disconnectWhileRunning:
    'Your bot is currently running, so you cannot disconnect your API keys at this time.',
  switchWhileRunning:
    'Your bots run on the exchange of your current key: stop them before binding a key of another exchange.', // (ours)
  notConnected: 'Connect your exchange API keys in API Setting first.', // (ours)
  invalidKeys:
    'API key is incorrect or IP is not allowed. Please double-check your credentials and ensure your IP address is authorized.',
  transferSuccessful: 'Transfer successful',
  transferFailed: 'Transfer failed',
  amountExceedsTransferable: 'Amount exceeds transferable balance',
  amountRequired: 'Amount is required.',
  amountPositive: 'Amount must be a positive number.',
  transferDirection: 'Transfer from spot to futures or from futures to spot.', // (ours)
  swapSuccessful: 'Swap successful',
  swapFailed: 'Swap failed',
  swapInvalidAmount: 'Enter a valid amount',
  assetRequired: 'Select an asset to swap.', // (ours)
  swapUsdt: 'USDT cannot be swapped to USDT.', // (ours)
  pairRequired: 'Select pair is required.',
  pairUnknown: 'Unknown trading pair.', // (ours)
  intervalInvalid: 'Interval must be one of 1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 1d.', // (ours)
} as const;

/**
 * A swap or transfer refused because running bots hold part of the asset (ours): names the bots and says how
 * much is free, so the user knows what to stop first.
 */
export function heldByBotsMessage(asset: string, botNames: readonly string[], free: string): string {
  const who = botNames.length === 1 ? `your bot ${botNames[0]}` : `your bots ${botNames.join(', ')}`;
  return `${asset} is held by ${who}; only ${free} ${asset} is free. Stop the bot first to use the rest.`;
}

/** One running bot's or cycle's share of the wallet (GET /api/committedfunds). */
export interface BotCommitment {
  botId: string;
  /** How the user knows the bot: pair, kind and strategy, e.g. "ETHUSDT Spot · Multigrid 'Tight'". */
  name: string;
  botType: 'multigrid' | 'scalping' | 'cycle' | 'range';
  symbol: string;
  category: 'Spot' | 'Future';
  /** USDT kept for its next buys and their fees, in the wallet it trades from. */
  usdt: string;
  /** Spot: the coin its open lots hold (base asset) and how much; futures bots hold a position instead. */
  asset: string | null;
  qty: string;
}

export interface CommittedFunds {
  spotUsdt: string;
  futuresUsdt: string;
  /** Coins held by spot bots, by asset. */
  coins: Record<string, string>;
  bots: BotCommitment[];
}
