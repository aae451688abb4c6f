import { BinanceExchange, type BinanceExchangeOptions } from '@gridbot/exchange/binance';
import { type FakeBinanceServer, virtualRateGate } from '@gridbot/exchange/testing';

/**
 * Our Binance adapter pointed at the double with the key the double was started with ('k' / 's'), without the
 * waits a test has no use for: no ccxt throttle, no sleep between read retries, a rate gate of its own.
 */
export function binanceClientOf(
  fake: FakeBinanceServer,
  options: Partial<BinanceExchangeOptions> = {},
): BinanceExchange {
  return new BinanceExchange({
    apiKey: 'k',
    secret: 's',
    baseUrl: fake.url,
    enableRateLimit: false,
    retry: { sleep: async () => {}, random: () => 0.5 },
    gate: virtualRateGate().gate,
    ...options,
  });
}
