import { FakeBinanceServer } from '@gridbot/exchange/testing';
import { type LiveDouble, liveModeJourney } from './support/live-mode-journey';

// The live-mode journey on Binance's double (support/live-mode-journey.ts says what it walks through).
liveModeJourney({
  name: 'binance-mode',
  exchange: 'Binance',
  keys: { apiKey: 'e2eApiKey'.padEnd(64, 'k'), secret: 'e2eSecret'.padEnd(64, 's') },
  spot: { pair: 'XRPUSDT', base: 'XRP', strategy: 'E2E Binance Grid', amount: '300' },
  futures: { pair: 'BNBUSDT', strategy: 'E2E Binance Scalp', amount: '300', leverage: '2' },
  startDouble: async (keys) => binanceDouble(await FakeBinanceServer.start(keys)),
  env: (fake) => ({ EXCHANGE: 'binance', BINANCE_REST_URL: fake.url }),
});

function binanceDouble(fake: FakeBinanceServer): LiveDouble {
  return {
    url: fake.url,
    close: () => fake.close(),
    setPrice: (symbol, market, price) => fake.setPrice(symbol, market, price),
    executed: (market) =>
      fake.book.orders
        .filter((o) => o.market === market && o.executedQty.gt(0))
        .map((o) => ({ side: o.side, quote: o.cumQuote.toNumber() })),
    coinHeld: (asset) => {
      const held = fake.book.balance(asset);
      return held.free.plus(held.locked).toNumber();
    },
    positionSize: (symbol) => fake.book.positions.get(symbol)?.qty.toNumber() ?? 0,
  };
}
