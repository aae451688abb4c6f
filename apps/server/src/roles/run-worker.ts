import { join } from 'node:path';
import Fastify from 'fastify';
import { publishBotEvent, serveBotEvents } from '../bus/bot-events';
import { appConfigFromEnv, type Env } from '../config/env';
import { SecretBox } from '../lib/secret-box';
import { mailerFromEnv } from '../mail/mailer';
import { createExchangeGateway, createFundingRates } from '../modules/exchange';
import { healthRoutes } from '../modules/health';
import { startNotifications } from '../modules/notifications';
import { createLogger, fastifyLoggerOptions } from '../ops/logger';
import { createMetrics } from '../ops/metrics';
import { LeaseCoordinator } from '../worker/lease-coordinator';
import {
  dataDirOf,
  feedForRole,
  onShutdown,
  openBus,
  openDatabase,
  openRequestBudget,
  workerIdOf,
} from './shared';
import { botRuntime } from './wiring';

/** How often the paper matcher reloads open orders and positions written by other processes. */
const PAPER_RESYNC_MS = 30_000;

/**
 * ROLE=worker: runs the bots whose leases it holds. Listens on PORT for /healthz, /readyz and
 * /metrics only. Commands and new bots arrive over the bus; the coordinator also polls the database, so a
 * missed message only delays them.
 */
export async function runWorker(env: Env): Promise<void> {
  const workerId = workerIdOf(env);
  const { log } = createLogger(env, { workerId });
  const database = await openDatabase(env);
  const bus = await openBus(env, log);
  const feed = await feedForRole(env, bus, log);
  const requests = openRequestBudget(env, log);
  const { gateway, paper } = await createExchangeGateway(env, database.db, feed, requests.budget);
  const metrics = createMetrics('worker');
  const secrets = SecretBox.load(env.MASTER_KEY, join(dataDirOf(env), 'master.key'));
  const coordinator = new LeaseCoordinator({
    db: database.db,
    workerId,
    leaseMs: env.LEASE_MS,
    pollMs: env.WORKER_POLL_MS,
    log,
    metrics: metrics.worker,
    announceRelease: () => void publishBotEvent(bus, { type: 'wake' }),
  });
  const { supervisor, keyMonitor } = botRuntime({
    database,
    feed,
    exchanges: gateway,
    paper,
    funding: await createFundingRates(env),
    secrets,
    bus,
    log,
    extra: { metrics: metrics.worker, leases: coordinator.hooks },
  });

  await feed.start();
  await paper.start();
  const resync = setInterval(() => {
    paper.start().catch((error: unknown) => log('paper matcher resync failed', { err: String(error) }));
  }, PAPER_RESYNC_MS);
  resync.unref();
  const stopEvents = await serveBotEvents(
    bus,
    {
      add: (botId) => coordinator.add(botId),
      notify: (botId) => coordinator.notify(botId),
      wake: () => coordinator.kick(0),
    },
    log,
  );
  await supervisor.start();
  await coordinator.start(supervisor);
  keyMonitor.start();
  const stopNotifications = startNotifications({
    db: database.db,
    bus,
    mailer: mailerFromEnv(env, database.db),
    secrets,
    config: appConfigFromEnv(env),
    log,
  });

  const app = Fastify({ logger: fastifyLoggerOptions(env, { workerId }) });
  await app.register(async (scope) =>
    healthRoutes(scope, {
      db: database.db,
      ops: {
        role: 'worker',
        readiness: () => ({ bus: bus.healthy(), leases: coordinator.ready }),
        metrics: metrics.registry,
        metricsToken: env.METRICS_TOKEN,
      },
    }),
  );
  onShutdown(log, async () => {
    clearInterval(resync);
    await stopEvents();
    await stopNotifications();
    keyMonitor.stop();
    await coordinator.stop();
    await supervisor.stop();
    await app.close();
    await paper.stop();
    await feed.stop();
    await bus.close();
    requests.close();
    await database.close();
  });
  await app.listen({ port: env.PORT, host: env.HOST });
  log('worker started', { workerId, port: env.PORT, leaseMs: env.LEASE_MS });
}
