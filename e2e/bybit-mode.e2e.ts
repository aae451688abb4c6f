import { FakeBybitServer } from '@gridbot/exchange/testing';
import { type LiveDouble, liveModeJourney } from './support/live-mode-journey';

// The live-mode journey with a Bybit key (support/live-mode-journey.ts says what it walks through): the member
// chooses Bybit on API Setting, and every order of both bots goes to Bybit's double, none to Binance's.
liveModeJourney({
  name: 'bybit-mode',
  exchange: 'Bybit',
  keys: { apiKey: 'e2eBybitKey'.padEnd(24, 'k'), secret: 'e2eBybitSecret'.padEnd(36, 's') },
  spot: { pair: 'XRPUSDT', base: 'XRP', strategy: 'E2E Bybit Grid', amount: '300' },
  futures: { pair: 'BNBUSDT', strategy: 'E2E Bybit Scalp', amount: '300', leverage: '2' },
  startDouble: async (keys) => bybitDouble(await FakeBybitServer.start(keys)),
  // No Binance address: a Binance call would fail the journey.
  env: (fake) => ({
    EXCHANGE: 'binance',
    EXCHANGE_REST_URL_BYBIT: fake.url,
    EXCHANGE_REST_URL_BINANCE: 'http://127.0.0.1:9',
  }),
});

function bybitDouble(fake: FakeBybitServer): LiveDouble {
  return {
    url: fake.url,
    close: () => fake.close(),
    setPrice: (symbol, market, price) => fake.setPrice(symbol, market, price),
    executed: (market) =>
      fake.book.orders
        .filter((o) => o.category === (market === 'spot' ? 'spot' : 'linear') && o.cumExecQty.gt(0))
        .map((o) => ({ side: o.side === 'Buy' ? 'BUY' : 'SELL', quote: o.cumExecValue.toNumber() })),
    coinHeld: (asset) => {
      const held = fake.book.balance(asset);
      return held.free.plus(held.locked).toNumber();
    },
    positionSize: (symbol) => fake.book.positions.get(symbol)?.size.toNumber() ?? 0,
  };
}
