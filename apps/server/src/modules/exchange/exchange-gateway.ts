import type { ApiKeyPermissions, Exchange, PaperExchange } from '@gridbot/exchange';

/** The key pair a user bound in API Setting, secret already opened. */
export interface UserKeys {
  apiKey: string;
  secret: string;
}

/**
 * Where a user's orders go (docs/architecture.md §1 `EXCHANGE`): the paper exchange, or Binance through ccxt with the
 * user's own keys. Modules ask the gateway for a user's `Exchange` and never build one themselves.
 */
export interface ExchangeGateway {
  readonly venue: 'paper' | 'binance';
  forUser(userId: string, keys: UserKeys): Exchange;
  /** Whether the keys can make a signed account call (paper: any saved keys are connected). */
  verifyKeys(userId: string, keys: UserKeys): Promise<boolean>;
  /** What the keys may do (Binance's apiRestrictions); absent on the paper exchange, where keys mean nothing. */
  keyPermissions?(keys: UserKeys): Promise<ApiKeyPermissions>;
}

/** The embedded default: every user trades on their own paper account. */
export function paperGateway(paper: PaperExchange): ExchangeGateway {
  return {
    venue: 'paper',
    forUser: (userId) => paper.forUser(userId),
    verifyKeys: async () => true,
  };
}
