import { findMarketRules, type MarketKind, money } from '@gridbot/shared';

export interface FollowedPair {
  symbol: string;
  market: MarketKind;
}

/** A double whose last price a test sets (the Binance and Bybit doubles alike). */
export interface PricedDouble {
  setPrice(symbol: string, market: MarketKind, price: string): void;
}

export interface PriceFollower {
  /** Resolves once every pair has had a price from the source (the double is then safe to trade on). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Keeps the double's last price of each pair on the market the app trades on. Binance's own price is made by
 * every other trader's orders, which the double does not have: a MARKET order fills at the book's price
 * ([spot rest-api.md] "New order (TRADE)": MARKET orders; [futures] "New Order (TRADE)"), and the ticker answers
 * the latest price ([spot rest-api.md] "Symbol price ticker"; [futures] "Symbol Price Ticker"). When the app's
 * prices come from another source (MARKET_FEED=replay or sim), the double must follow that source, or the app
 * sizes orders at one price and the exchange fills (or refuses them by NOTIONAL) at another.
 *
 * `read` answers the source's price of a pair (for a running app: its /api/liveprice); every `everyMs` the
 * double moves there, on the tick ([spot filters.md] PRICE_FILTER: a price is a multiple of tickSize), which
 * fills resting limit orders and liquidates as Binance would (`FakeBinanceBook.setPrice`).
 */
export function followPrices(
  fake: PricedDouble,
  pairs: readonly FollowedPair[],
  read: (pair: FollowedPair) => Promise<string>,
  everyMs = 100,
): PriceFollower {
  let running = true;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const move = async (pair: FollowedPair) => {
    const price = money(await read(pair));
    const tick = findMarketRules(pair.symbol, pair.market)?.tickSize ?? '0';
    const onTick = money(tick).isZero() ? price : price.minus(price.mod(tick));
    if (onTick.gt(0)) fake.setPrice(pair.symbol, pair.market, onTick.toFixed());
  };
  const loop = (async () => {
    let first = true;
    while (running) {
      const moved = await Promise.all(
        pairs.map((pair) =>
          move(pair).then(
            () => true,
            () => false,
          ),
        ),
      );
      if (first && moved.every(Boolean)) {
        first = false;
        markReady();
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    ready,
    async stop() {
      running = false;
      await loop;
    },
  };
}
