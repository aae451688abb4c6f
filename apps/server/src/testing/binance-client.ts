import type { Db } from '@gridbot/db';
import type { Exchange, MarketFeed } from '@gridbot/exchange';
import { BinanceExchange, type BinanceExchangeOptions } from '@gridbot/exchange/binance';
import { type FakeBinanceServer, virtualBudget } from '@gridbot/exchange/testing';
import type { BotSupervisor, SupervisorDeps } from '../worker/bot-supervisor';
import { testSupervisor } from './test-supervisor';

/**
 * Our Binance adapter pointed at the double with the key the double was started with ('k' / 's'), without the
 * waits a test has no use for: no ccxt throttle, no sleep between read retries, a request budget of its own, and a
 * recvWindow of 2 s instead of 5 s (an unanswered order is known absent once it has passed).
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
    budget: virtualBudget().budget,
    recvWindowMs: 2_000,
    ...options,
  });
}

/**
 * A supervisor whose every user trades on `exchange` (the adapter on the double) with the double's key, the
 * clock and no log; `deps` adds to or overrides that (a log that collects halts, short reload delays).
 */
export function supervisorOnBinance(
  db: Db,
  feed: MarketFeed,
  exchange: Exchange,
  deps: Partial<SupervisorDeps> = {},
): BotSupervisor {
  const exchanges = { venue: 'binance' as const, forUser: () => exchange, verifyKeys: async () => true };
  return testSupervisor(db, feed, exchanges, deps);
}
