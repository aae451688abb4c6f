import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@gridbot/db';
import { buildApp } from './app';
import { appConfigFromEnv, parseEnv } from './config/env';
import type { AppDeps } from './deps';
import { systemClock } from './lib/clock';
import { SecretBox } from './lib/secret-box';
import { createOutboxMailer, createSmtpMailer } from './mail/mailer';
import { DEMO_ACCOUNT, seedDemoAccount } from './modules/demo/demo-seed';
import { createExchangeGateway, createMarketFeed } from './modules/exchange/market-setup';
import { runningWorkOf } from './modules/exchange/running-work';
import { loadUserKeys } from './modules/wallet/user-exchange';
import { RateLimiter } from './plugins/rate-limit';
import { BotSupervisor } from './worker/bot-supervisor';

const webDistDir = fileURLToPath(new URL('../../web/dist', import.meta.url));

async function main() {
  const env = parseEnv(process.env);
  const config = appConfigFromEnv(env);
  const dataDir = resolve(env.DATA_DIR);
  const database = await createDb({ databaseUrl: env.DATABASE_URL, dataDir: join(dataDir, 'pg') });
  const mailer = env.SMTP_URL
    ? createSmtpMailer(env.SMTP_URL, env.MAIL_FROM)
    : createOutboxMailer(database.db, (line) => console.log(line));
  const feed = createMarketFeed(env, (error) => console.error('tick subscriber failed', error));
  const { gateway, paper } = createExchangeGateway(env, database.db, feed);
  let supervisor: BotSupervisor | undefined;
  const deps: AppDeps = {
    db: database.db,
    mailer,
    clock: systemClock,
    config,
    limiter: new RateLimiter(systemClock),
    feed,
    exchanges: gateway,
    secrets: SecretBox.load(env.MASTER_KEY, join(dataDir, 'master.key')),
    runningWork: runningWorkOf(database.db),
    botControl: {
      add: async (botId) => supervisor?.add(botId),
      notify: async (botId) => supervisor?.notify(botId),
    },
  };

  const app = await buildApp(deps, { logger: { level: env.LOG_LEVEL }, webDistDir });
  await feed.start();
  await paper.start();
  if (env.SEED_DEMO) await seedDemoAccount(deps, paper);
  // Embedded mode (ROLE=all): the bot runtime runs in this process.
  supervisor = new BotSupervisor({
    db: database.db,
    feed,
    exchanges: gateway,
    loadKeys: (userId) => loadUserKeys(deps, userId),
    now: () => Date.now(),
    log: (message, extra) => app.log.warn({ ...extra }, message),
  });
  await supervisor.start();

  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await supervisor?.stop();
    await paper.stop();
    await feed.stop();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: env.PORT, host: env.HOST });
  const where = env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${join(dataDir, 'pg')}`;
  console.log(
    `\nGridbot is running at http://localhost:${env.PORT} (database: ${where}, market: ${feed.kind}, exchange: ${env.EXCHANGE})`,
  );
  if (env.SEED_DEMO) console.log(`Demo account: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}`);
  if (!config.production && !env.SMTP_URL)
    console.log(`E-mails go to the outbox: http://localhost:${env.PORT}/dev/mailbox`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
