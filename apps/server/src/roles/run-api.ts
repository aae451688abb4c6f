import { buildApp } from '../app/app';
import { botControlOver } from '../bus/bot-events';
import { appConfigFromEnv, type Env } from '../config/env';
import { mailerFromEnv } from '../mail/mailer';
import { ensureLease } from '../modules/bots';
import { seedDemoAccount } from '../modules/demo';
import { createExchangeGateway } from '../modules/exchange';
import { shareSessionRevocations } from '../modules/identity';
import { startDepositWatcher } from '../modules/platform';
import { fastifyLoggerOptions } from '../ops/logger';
import { createMetrics } from '../ops/metrics';
import {
  feedForRole,
  onShutdown,
  openBus,
  openDatabase,
  openRateLimiter,
  openRequestBudget,
  openSecretBox,
} from './shared';
import { apiDeps } from './wiring';

/**
 * ROLE=api: a stateless HTTP process. It trades nothing: a started bot gets a free lease row and a bus
 * `add`, queued commands a bus `notify`; the workers do the rest (and find both in the database if the
 * message is lost). Prices come from the market process over the bus.
 */
export async function runApi(env: Env, webDistDir: string): Promise<void> {
  const config = appConfigFromEnv(env);
  const database = await openDatabase(env);
  const metrics = createMetrics('api');
  let log: (message: string, extra?: Record<string, unknown>) => void = console.warn;
  const bus = await openBus(env, (message, extra) => log(message, extra));
  const feed = await feedForRole(env, bus, (message, extra) => log(message, extra));
  const requests = openRequestBudget(env, (message, extra) => log(message, extra));
  const { gateway, paper } = await createExchangeGateway(env, database.db, feed, requests.budget);
  const rateLimit = openRateLimiter(env, (message, extra) => log(message, extra));
  const mailer = mailerFromEnv(env, database.db);
  const deps = await apiDeps(env, {
    database,
    config,
    mailer,
    limiter: rateLimit.limiter,
    feed,
    exchanges: gateway,
    budget: requests.budget,
    secrets: openSecretBox(env, (line) => console.warn(line)),
    bus,
    userEvents: bus,
    botControl: botControlOver(bus, { beforeAdd: (botId) => ensureLease(database.db, botId) }),
    ops: {
      role: 'api',
      readiness: () => ({ bus: bus.healthy(), market: feed.lastPrice('BTCUSDT', 'spot') !== undefined }),
      metrics: metrics.registry,
      metricsToken: env.METRICS_TOKEN,
    },
  });
  const app = await buildApp(deps, { logger: fastifyLoggerOptions(env), webDistDir });
  const chain = startDepositWatcher(deps, (error) => app.log.warn({ err: error }, 'deposit scan failed'));
  await shareSessionRevocations(deps.state.sessions, bus);
  log = (message, extra) => app.log.warn(extra ?? {}, message);
  await feed.start();
  if (env.SEED_DEMO) await seedDemoAccount(deps, paper);

  onShutdown(
    (message) => app.log.info(message),
    async () => {
      await app.close();
      chain?.watcher.stop();
      await feed.stop();
      await bus.close();
      rateLimit.close();
      requests.close();
      await database.close();
    },
  );
  await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info({ port: env.PORT }, 'api process listening');
}
