import { FakeOkxServer } from '@gridbot/exchange/testing';
import { type LiveDouble, liveModeJourney } from './support/live-mode-journey';

// The live-mode journey with an OKX key (support/live-mode-journey.ts says what it walks through): the member
// chooses OKX on API Setting and enters the key's passphrase, and every order of both bots goes to OKX's
// double, none to Binance's.
liveModeJourney({
  name: 'okx-mode',
  exchange: 'OKX',
  keys: {
    apiKey: 'e2eOkxKey'.padEnd(32, 'k'),
    secret: 'e2eOkxSecret'.padEnd(32, 's'),
    passphrase: 'e2eOkxPassphrase1',
  },
  spot: { pair: 'XRPUSDT', base: 'XRP', strategy: 'E2E OKX Grid', amount: '300' },
  futures: { pair: 'BNBUSDT', strategy: 'E2E OKX Scalp', amount: '300', leverage: '2' },
  startDouble: async (keys) => okxDouble(await FakeOkxServer.start(keys)),
  // No Binance address: a Binance call would fail the journey.
  env: (fake) => ({
    EXCHANGE: 'binance',
    EXCHANGE_REST_URL_OKX: fake.url,
    EXCHANGE_REST_URL_BINANCE: 'http://127.0.0.1:9',
  }),
});

function okxDouble(fake: FakeOkxServer): LiveDouble {
  return {
    url: fake.url,
    close: () => fake.close(),
    setPrice: (symbol, market, price) => fake.setPrice(symbol, market, price),
    executed: (market) =>
      fake.book.orders
        .filter((o) => o.inst.instType === (market === 'spot' ? 'SPOT' : 'SWAP') && o.accFillSz.gt(0))
        .map((o) => ({ side: o.side === 'buy' ? 'BUY' : 'SELL', quote: o.fillValue.toNumber() })),
    coinHeld: (asset) => fake.book.cash.get(asset)?.toNumber() ?? 0,
    positionSize: (symbol) =>
      fake.book.positions.get(`${symbol.replace(/USDT$/, '')}-USDT-SWAP`)?.pos.toNumber() ?? 0,
  };
}
