import type { Db } from '@gridbot/db';
import type { MarketFeed } from '@gridbot/exchange';
import type { ExchangeGateway } from '../modules/exchange/exchange-gateway';
import { BotSupervisor, type SupervisorDeps } from '../worker/bot-supervisor';

/**
 * A supervisor whose users trade through `exchanges` with a test key, on the clock and without a log; `deps` adds
 * to or overrides that (a log that collects halts, short reload delays, batches of one).
 */
export function testSupervisor(
  db: Db,
  feed: MarketFeed,
  exchanges: ExchangeGateway,
  deps: Partial<SupervisorDeps> = {},
): BotSupervisor {
  return new BotSupervisor({
    db,
    feed,
    exchanges,
    loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
    now: () => Date.now(),
    log: () => {},
    ...deps,
  });
}
