import { createTestDb, type DbHandle } from '@gridbot/db';
import { type MarketFeed, PaperExchange, SimFeed } from '@gridbot/exchange';
import { buildApp } from '../app/app';
import type { AppDeps } from '../app/deps';
import { createProcessState } from '../app/process-state';
import { botControlOver, serveBotEvents } from '../bus/bot-events';
import { MemoryBus } from '../bus/bus';
import { publishCommandsSettled } from '../bus/command-results';
import type { AppConfig } from '../config/env';
import { manualClock } from '../lib/clock';
import { SecretBox } from '../lib/secret-box';
import type { Mail, Mailer } from '../mail/mailer';
import { runningWorkOf } from '../modules/bots/running-work';
import { paperGateway } from '../modules/exchange/exchange-gateway';
import { loadUserKeys } from '../modules/exchange/user-exchange';
import { SqlPaperStore } from '../modules/paper/sql-paper-store.repo';
import { startDepositWatcher } from '../modules/platform/deposits.service';
import { RateLimiter } from '../plugins/rate-limit';
import { BotSupervisor } from '../worker/bot-supervisor';

export interface TestApp<F extends MarketFeed = SimFeed> {
  app: Awaited<ReturnType<typeof buildApp>>;
  deps: AppDeps;
  clock: ReturnType<typeof manualClock>;
  feed: F;
  /** Every mail sent, oldest first. */
  mails: Mail[];
  handle: DbHandle;
  /** The in-process runtime, for what only the runtime does (pausing a bot over its account). */
  supervisor: BotSupervisor;
  close(): Promise<void>;
}

/** buildApp on a throwaway migrated database (PGlite, or PostgreSQL when TEST_DATABASE_URL is set). */
export async function createTestApp<F extends MarketFeed = SimFeed>(
  overrides: Partial<AppConfig> = {},
  options: {
    feed?: F;
    /**
     * Start the paper exchange's matcher: resting limit orders fill on ticks and positions liquidate, as in a
     * running process. Off by default: the tests of market-order bots move prices past liquidation levels freely.
     */
    matchOrders?: boolean;
  } = {},
): Promise<TestApp<F>> {
  const handle = await createTestDb();
  const clock = manualClock(new Date());
  const mails: Mail[] = [];
  const mailer: Mailer = {
    async send(mail) {
      mails.push(mail);
    },
  };
  const config: AppConfig = {
    production: false,
    exchange: 'paper',
    serverPublicIp: '203.0.113.7',
    publicUrl: 'http://localhost:3000',
    subscriptionEnabled: true,
    adminEmail: 'admin@example.com',
    ...overrides,
  };
  // A seeded simulated market that does not tick: prices exist from construction and stay put.
  const feed = options.feed ?? (new SimFeed({ seed: 7, historyCandles: 50 }) as unknown as F);
  const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });
  if (options.matchOrders) await paper.start();
  const secrets = SecretBox.fromKey(Buffer.alloc(32, 1));
  const exchanges = paperGateway(paper);
  let supervisor: BotSupervisor | undefined;
  const userEvents = new MemoryBus();
  const deps: AppDeps = {
    db: handle.db,
    mailer,
    clock,
    config,
    limiter: new RateLimiter(clock),
    feed,
    exchanges,
    secrets,
    runningWork: runningWorkOf(handle.db),
    userEvents,
    state: createProcessState({ db: handle.db, feed, userEvents }),
    // As ROLE=all: a new bot is launched before its start answers, commands reach the runtime over the bus.
    botControl: botControlOver(userEvents, { launchHere: async (botId) => supervisor?.add(botId) }),
  };
  const runtime = new BotSupervisor({
    db: handle.db,
    feed,
    exchanges,
    loadKeys: (userId) => loadUserKeys(deps, userId),
    now: () => clock.now().getTime(),
    log: () => {},
    onCommandsSettled: (botId) => void publishCommandsSettled(userEvents, botId),
  });
  supervisor = runtime;
  await runtime.start();
  const stopEvents = await serveBotEvents(userEvents, runtime, () => {});
  const app = await buildApp(deps);
  const chain = startDepositWatcher(deps, () => {});
  return {
    app,
    deps,
    clock,
    feed,
    mails,
    handle,
    supervisor: runtime,
    async close() {
      await app.close();
      chain?.watcher.stop();
      await stopEvents();
      await supervisor?.stop();
      await paper.stop();
      await handle.close();
    },
  };
}

/** The six-digit code of the newest mail to `to`. */
export function lastOtp(mails: Mail[], to: string): string {
  const mail = [...mails].reverse().find((m) => m.to === to && /verification code/.test(m.subject));
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

/** The reset token of the newest reset mail to `to`. */
export function lastResetToken(mails: Mail[], to: string): string {
  const mail = [...mails].reverse().find((m) => m.to === to && /Reset/.test(m.subject));
  const token = mail?.text.match(/\/resetpassword\/([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no reset link mailed to ${to}`);
  return token;
}

/**
 * Runs `body` as if the platform traded on Binance, where every user must bind keys first, then goes back
 * to paper. Routes read `deps.exchanges` per request, so swapping it is enough.
 */
export async function asBinanceVenue(t: { deps: AppDeps }, body: () => Promise<void>): Promise<void> {
  const paper = t.deps.exchanges;
  (t.deps as { exchanges: AppDeps['exchanges'] }).exchanges = { ...paper, venue: 'binance' };
  try {
    await body();
  } finally {
    (t.deps as { exchanges: AppDeps['exchanges'] }).exchanges = paper;
  }
}

/**
 * Runs `body` as if the API and the bots ran in separate processes: a bot handed to the runtime (a start, a
 * resume) is launched by the worker after the request has moved on, as the API role hands it over the bus.
 */
export async function withSeparateWorker(t: { deps: AppDeps }, body: () => Promise<void>): Promise<void> {
  const control = t.deps.botControl;
  (t.deps as { botControl: AppDeps['botControl'] }).botControl = {
    ...control,
    add: async (botId) => {
      void control.add(botId).catch(() => undefined);
    },
  };
  try {
    await body();
  } finally {
    (t.deps as { botControl: AppDeps['botControl'] }).botControl = control;
  }
}
