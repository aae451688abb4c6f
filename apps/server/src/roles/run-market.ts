import Fastify from 'fastify';
import { Counter } from 'prom-client';
import { publishTicks } from '../bus/tick-relay';
import type { Env } from '../config/env';
import { createMarketFeed } from '../modules/exchange';
import { healthRoutes } from '../modules/health';
import { createLogger, fastifyLoggerOptions } from '../ops/logger';
import { createMetrics } from '../ops/metrics';
import { onShutdown, openBus } from './shared';

/**
 * ROLE=market: runs the sim or replay feed once for the whole deployment and publishes its ticks on the
 * bus, so every worker and API process sees the same prices. One market process per deployment.
 */
export async function runMarket(env: Env): Promise<void> {
  const { log } = createLogger(env);
  const bus = await openBus(env, log);
  const feed = await createMarketFeed(env, (error) => log('tick subscriber failed', { err: String(error) }));
  const metrics = createMetrics('market');
  await feed.start();
  const relay = publishTicks(feed, bus);
  let counted = 0;
  new Counter({
    name: 'gridbot_ticks_published_total',
    help: 'Ticks published on the bus (the latest of each stream, at most one message per 10 ms)',
    registers: [metrics.registry],
    collect() {
      const now = relay.published();
      this.inc(now - counted);
      counted = now;
    },
  });

  const app = Fastify({ logger: fastifyLoggerOptions(env) });
  await app.register(async (scope) =>
    healthRoutes(scope, {
      ops: {
        role: 'market',
        readiness: () => ({ bus: bus.healthy(), feed: feed.lastPrice('BTCUSDT', 'spot') !== undefined }),
        metrics: metrics.registry,
        metricsToken: env.METRICS_TOKEN,
      },
    }),
  );
  onShutdown(log, async () => {
    relay.stop();
    await app.close();
    await feed.stop();
    await bus.close();
  });
  await app.listen({ port: env.PORT, host: env.HOST });
  log('market started', { feed: feed.kind, port: env.PORT });
}
