// The push channel under load: BENCH_SOCKETS sockets (default 1,000: 10 tabs each of 100 users) on one ROLE=api
// process, and one bot event per bot per second for BENCH_BOTS bots (default 10,000) of those users, published
// on Redis as the workers publish them. Measured: p50/p99 from the publish on the bus to the arrival at a client,
// and the api process's CPU and memory. Goal: p99 under 200 ms, under 300 MB.
// Run: npm run bench push   (BENCH_SOCKETS, BENCH_BOTS, BENCH_SECONDS=20; PostgreSQL from TEST_DATABASE_URL)
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createTestDb, sessions } from '@gridbot/db';
import { Redis } from 'ioredis';
import { WebSocket } from 'ws';
import { channels } from '../src/bus/bus';
import type { UserEvent } from '../src/bus/user-events';
import { SecretBox } from '../src/lib/secret-box';
import { sha256 } from '../src/lib/tokens';
import { insertUserWithKeys } from '../src/testing/bot-fixtures';
import { cpuMeter } from './support/cpu';
import { postgresSettings } from './support/postgres-settings';
import { freePort, killAll, ready, sleep, startRedis, startServer, stopAll } from './support/processes';

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1_000);
const BOTS = Number(process.env.BENCH_BOTS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const USERS = Math.max(1, Math.round(SOCKETS / 10));
const GOAL_P99_MS = 200;
const GOAL_RSS_MB = 300;
/** The processes' Redis prefix, so this script publishes where the api process listens. */
const REDIS_PREFIX = 'gridbot:push-bench:';

const rssMbOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main() {
  const handle = await createTestDb();
  console.log(await postgresSettings(handle.db));
  const secrets = SecretBox.fromKey(Buffer.alloc(32, 9));
  const tokens: { userId: string; token: string }[] = [];
  for (let i = 0; i < USERS; i += 1) {
    const userId = await insertUserWithKeys(handle.db, secrets);
    const token = randomBytes(32).toString('base64url');
    await handle.db
      .insert(sessions)
      .values({ userId, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 3_600_000) });
    tokens.push({ userId, token });
  }
  const redisUrl = await startRedis();
  const common = {
    DATABASE_URL: String(handle.url),
    REDIS_URL: redisUrl,
    LOG_LEVEL: 'error',
    SEED_DEMO: 'false',
    MASTER_KEY: '09'.repeat(32),
    REDIS_PREFIX,
  };
  const marketPort = await freePort();
  startServer({ ...common, ROLE: 'market', PORT: String(marketPort), HOST: '127.0.0.1' });
  const apiPort = await freePort();
  const api = startServer({ ...common, ROLE: 'api', PORT: String(apiPort), HOST: '127.0.0.1' });
  await ready(marketPort);
  await ready(apiPort);

  // Bots spread evenly over the users; the event names its user, as a worker's fill does.
  const bots = Array.from({ length: BOTS }, (_, i) => ({
    botId: randomUUID(),
    userId: tokens[i % USERS]!.userId,
  }));
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let measuring = false;
  const sockets: WebSocket[] = [];
  for (let i = 0; i < SOCKETS; i += 1) {
    const { token } = tokens[i % USERS]!;
    const socket = new WebSocket(`ws://127.0.0.1:${apiPort}/api/push`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ type: 'auth', token }));
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string; botId?: string };
      if (!measuring || message.type !== 'bot' || !message.botId) return;
      const at = sentAt.get(message.botId);
      if (at !== undefined) latencies.push(performance.now() - at);
    });
    sockets.push(socket);
  }
  console.log(`${SOCKETS} sockets of ${USERS} users open; ${BOTS} bots, one event each a second`);

  // 10 ms ticks, each with a hundredth of the bots: one event per bot per second.
  const publisher = new Redis(redisUrl);
  const perTick = Math.ceil(BOTS / 100);
  let cursor = 0;
  const timer = setInterval(() => {
    const batch: UserEvent[] = [];
    const now = performance.now();
    for (let i = 0; i < perTick; i += 1) {
      const bot = bots[cursor]!;
      cursor = (cursor + 1) % bots.length;
      sentAt.set(bot.botId, now);
      batch.push({ kind: 'bot', botId: bot.botId, userId: bot.userId, change: 'fill', status: 'Live' });
    }
    void publisher.publish(REDIS_PREFIX + channels.userEvents, JSON.stringify(batch));
  }, 10);

  await sleep(5_000);
  const cpu = cpuMeter({ api: () => [api.pid as number] }, String(handle.url));
  measuring = true;
  let peakRss = 0;
  for (let s = 0; s < SECONDS; s += 1) {
    await sleep(1_000);
    peakRss = Math.max(peakRss, rssMbOf(api.pid as number));
  }
  measuring = false;
  const busy = cpu.stop();
  clearInterval(timer);
  publisher.disconnect();
  for (const socket of sockets) socket.terminate();

  latencies.sort((a, b) => a - b);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  console.log(
    `deliveries ${latencies.length} (${Math.round(latencies.length / SECONDS)}/s), bus→client p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; api CPU ${(busy.groups.api! * 100).toFixed(0)} % of a core, peak RSS ${peakRss.toFixed(0)} MB; machine busy ${busy.machine.toFixed(2)} cores`,
  );
  const within = p99 < GOAL_P99_MS && peakRss < GOAL_RSS_MB;
  console.log(`goal (p99 < ${GOAL_P99_MS} ms, RSS < ${GOAL_RSS_MB} MB): ${within ? 'met' : 'NOT met'}`);
  await stopAll();
  await handle.close();
}

main().catch(async (error: unknown) => {
  console.error(error);
  killAll();
  process.exit(1);
});
