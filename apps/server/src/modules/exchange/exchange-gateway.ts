import type { ApiKeyPermissions, Exchange, PaperExchange } from '@gridbot/exchange';
import type { KeyExchange } from '@gridbot/shared';

/** The key pair a user bound in API Setting, secret already opened, and the exchange it belongs to. */
export interface UserKeys {
  apiKey: string;
  secret: string;
  /** Absent: Binance, the one exchange keys were bound on before the choice. */
  exchange?: KeyExchange;
  /** OKX keys only: the passphrase chosen with the key. */
  passphrase?: string;
}

/** Whether an account trades on a live exchange (its orders and positions are the exchange's), not on paper. */
export const isLiveVenue = (venue: Exchange['venue']) => venue !== 'paper';

/**
 * Where a user's orders go (docs/architecture.md §1 `EXCHANGE`): the paper exchange, or (`binance`, the live
 * mode) the exchange of the user's own key, Binance or Bybit, through ccxt. Modules ask the gateway for a
 * user's `Exchange` and never build one themselves.
 */
export interface ExchangeGateway {
  readonly venue: 'paper' | 'binance';
  /** The exchanges a key may be bound on (live mode); none on paper, where keys mean nothing. */
  readonly keyExchanges?: readonly KeyExchange[];
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
    keyExchanges: [],
    forUser: (userId) => paper.forUser(userId),
    verifyKeys: async () => true,
  };
}
