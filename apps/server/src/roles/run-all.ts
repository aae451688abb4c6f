import { join } from 'node:path';
import { buildApp } from '../app/app';
import { botControlOver, serveBotEvents } from '../bus/bot-events';
import { MemoryBus } from '../bus/bus';
import { appConfigFromEnv, type Env } from '../config/env';
import { mailerFromEnv } from '../mail/mailer';
import { DEMO_ACCOUNT, DEMO_ADMIN, seedDemoAccount } from '../modules/demo';
import { createExchangeGateway, createFundingRates, createMarketFeed } from '../modules/exchange';
import { shareSessionRevocations } from '../modules/identity';
import { startNotifications } from '../modules/notifications';
import { startDepositWatcher } from '../modules/platform';
import { createMetrics } from '../ops/metrics';
import type { BotSupervisor } from '../worker/bot-supervisor';
import {
  dataDirOf,
  type Log,
  onShutdown,
  openDatabase,
  openRateLimiter,
  openRequestBudget,
  openSecretBox,
} from './shared';
import { apiDeps, botRuntime } from './wiring';

/** ROLE=all (embedded, `npm start`): API, market feed and every bot in this one process. */
export async function runAll(env: Env, webDistDir: string): Promise<void> {
  const config = appConfigFromEnv(env);
  const dataDir = dataDirOf(env);
  const database = await openDatabase(env);
  const mailer = mailerFromEnv(env, database.db);
  const feed = await createMarketFeed(env, (error) => console.error('tick subscriber failed', error));
  const requests = openRequestBudget(env, (message, extra) => console.warn(message, extra ?? ''));
  const { gateway, paper } = await createExchangeGateway(env, database.db, feed, requests.budget);
  const metrics = createMetrics('all');
  const rateLimit = openRateLimiter(env, (message, extra) => console.warn(message, extra ?? ''));
  let started = false;
  // Bot changes and notifications for the push channel, within this process.
  const userEvents = new MemoryBus();
  let supervisor: BotSupervisor | undefined;
  const deps = await apiDeps(env, {
    database,
    config,
    mailer,
    limiter: rateLimit.limiter,
    feed,
    exchanges: gateway,
    budget: requests.budget,
    secrets: openSecretBox(env, (line) => console.warn(line)),
    userEvents,
    // One in-process owner of every bot, no leases: a new bot is launched before its start answers; commands
    // reach it over the in-process bus, as they reach a worker over Redis with split roles.
    botControl: botControlOver(userEvents, { launchHere: async (botId) => supervisor?.add(botId) }),
    ops: {
      role: 'all',
      readiness: () => ({ supervisor: started }),
      metrics: metrics.registry,
      metricsToken: env.METRICS_TOKEN,
    },
  });

  const app = await buildApp(deps, { logger: { level: env.LOG_LEVEL }, webDistDir });
  const chain = startDepositWatcher(deps, (error) => app.log.warn({ err: error }, 'deposit scan failed'));
  // One process: every revocation is its own, so cached sessions can be trusted longer.
  await shareSessionRevocations(deps.state.sessions, undefined);
  await feed.start();
  await paper.start();
  if (env.SEED_DEMO) await seedDemoAccount(deps, paper);
  const log: Log = (message, extra) => app.log.warn({ ...extra }, message);
  const runtime = botRuntime({
    database,
    feed,
    exchanges: gateway,
    paper,
    funding: await createFundingRates(env),
    secrets: deps.secrets,
    bus: userEvents,
    log,
    extra: { metrics: metrics.worker },
  });
  const { keyMonitor } = runtime;
  supervisor = runtime.supervisor;
  // Every bot is read before the server answers; their launches go on while it does (a range grid's launch
  // may wait out an order's window), and /readyz says ready once they have ended.
  const { launched } = await supervisor.startLaunching();
  void launched
    .catch((error: unknown) => log('launching the bots failed', { err: String(error) }))
    .finally(() => {
      started = true;
    });
  const stopEvents = await serveBotEvents(userEvents, supervisor, log);
  keyMonitor.start();
  const stopNotifications = startNotifications({
    db: database.db,
    bus: userEvents,
    mailer,
    secrets: deps.secrets,
    config,
    log,
  });

  onShutdown(
    (message) => app.log.info(message),
    async () => {
      await app.close();
      chain?.watcher.stop();
      await stopEvents();
      await stopNotifications();
      keyMonitor.stop();
      await supervisor?.stop();
      await paper.stop();
      await feed.stop();
      rateLimit.close();
      requests.close();
      await database.close();
    },
  );

  await app.listen({ port: env.PORT, host: env.HOST });
  const where = env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${join(dataDir, 'pg')}`;
  console.log(
    `\nGridbot is running at http://localhost:${env.PORT} (database: ${where}, market: ${feed.kind}, exchange: ${env.EXCHANGE})`,
  );
  if (env.SEED_DEMO) console.log(`Demo account: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}`);
  if (env.SEED_DEMO && !config.production)
    console.log(`Administrator (/admin): ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`);
  if (!env.SMTP_URL)
    console.log(
      config.devMailbox
        ? `E-mails go to the outbox: http://localhost:${env.PORT}/dev/mailbox (from this machine only)`
        : 'E-mails are printed here (no SMTP_URL; DEV_MAILBOX=true lists them at /dev/mailbox)',
    );
  if (env.HOST === '127.0.0.1' || env.HOST === 'localhost')
    console.log(`Listening on ${env.HOST} only: set HOST=0.0.0.0 to reach it from other machines.`);
}
