// Dashboard polling under load (issue #6 bench): 1,000 users × 10 bots on PostgreSQL, a real HTTP server,
// clients polling the dashboard mix (botstatus, pichart, totalprofitbookdata, tickers) as fast as answered.
// Run: npm run bench dashboard   (BENCH_USERS=1000 BENCH_SECONDS=15 BENCH_CLIENTS=64)
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { apiKeys, bots, createTestDb, sessions, users } from '@gridbot/db';
import { createGridBot } from '@gridbot/engine';
import { PaperExchange, SimFeed } from '@gridbot/exchange';
import { SYMBOLS } from '@gridbot/shared';
import { buildApp } from '../src/app';
import { systemClock } from '../src/lib/clock';
import { SecretBox } from '../src/lib/secret-box';
import { newSecretToken, sha256 } from '../src/lib/tokens';
import { paperGateway } from '../src/modules/exchange/exchange-gateway';
import { runningWorkOf } from '../src/modules/exchange/running-work';
import { SqlPaperStore } from '../src/modules/paper/sql-paper-store';
import { RateLimiter } from '../src/plugins/rate-limit';
import { simpleMultigrid } from '../src/testing/bot-fixtures';

const USERS = Number(process.env.BENCH_USERS ?? 1000);
const BOTS_PER_USER = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 64);
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const MIX = ['/api/botstatus', '/api/pichart', '/api/totalprofitbookdata', '/api/tickers'];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main() {
  console.log(
    `${cpus()[0]?.model} × ${cpus().length}, node ${process.version}; ${USERS} users × ${BOTS_PER_USER} bots, ${CLIENTS} clients, ${SECONDS} s`,
  );
  const handle = await createTestDb();
  const secrets = SecretBox.fromKey(Buffer.alloc(32, 4));
  const feed = new SimFeed({ seed: 3, historyCandles: 100 });
  const paper = new PaperExchange({ store: new SqlPaperStore(handle.db), feed });

  const tokens: string[] = [];
  for (let from = 0; from < USERS; from += 500) {
    const count = Math.min(500, USERS - from);
    const rows = await handle.db
      .insert(users)
      .values(
        Array.from({ length: count }, (_, k) => ({
          email: `d${from + k}@x.io`,
          username: `d${from + k}`,
          contactNo: '1',
          passwordHash: 'x',
          userCode: `D${from + k}`,
        })),
      )
      .returning({ id: users.id });
    await handle.db
      .insert(apiKeys)
      .values(rows.map((u) => ({ userId: u.id, apiKey: 'k', secretSealed: secrets.seal('s') })));
    const batch = rows.map(() => newSecretToken());
    tokens.push(...batch);
    await handle.db.insert(sessions).values(
      rows.map((u, k) => ({
        userId: u.id,
        tokenHash: sha256(batch[k]!),
        expiresAt: new Date(Date.now() + 86_400_000),
      })),
    );
    const state = createGridBot({
      params: simpleMultigrid,
      investment: 500,
      market: 'spot',
      startTimeMs: Date.now(),
    });
    await handle.db.insert(bots).values(
      rows.flatMap((u, k) =>
        Array.from({ length: BOTS_PER_USER }, (_, b) => ({
          userId: u.id,
          botType: 'multigrid' as const,
          strategyName: 'Simple',
          strategySnapshot: {} as never,
          symbol: SYMBOLS[(k + b) % SYMBOLS.length]!,
          category: 'Spot' as const,
          investment: '500',
          engineState: state as unknown as Record<string, unknown>,
        })),
      ),
    );
  }

  const app = await buildApp({
    db: handle.db,
    mailer: { send: async () => {} },
    clock: systemClock,
    config: {
      production: true,
      exchange: 'paper',
      serverPublicIp: '127.0.0.1',
      publicUrl: 'http://x',
      subscriptionEnabled: true,
      adminEmail: undefined,
    },
    limiter: new RateLimiter(systemClock),
    feed,
    exchanges: paperGateway(paper),
    secrets,
    runningWork: runningWorkOf(handle.db),
    botControl: { add: async () => {}, notify: async () => {} },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });

  const latencies = new Map<string, number[]>(MIX.map((path) => [path, []]));
  let errors = 0;
  const deadline = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let n = 0, i = c; performance.now() < deadline; n += 1, i += CLIENTS) {
        const path = MIX[(c + n) % MIX.length]!;
        const token = tokens[(i * 7919) % tokens.length]!;
        const started = performance.now();
        const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (!res.ok) errors += 1;
        latencies.get(path)!.push(performance.now() - started);
      }
    }),
  );
  const all = [...latencies.values()].flat().sort((a, b) => a - b);
  console.log(
    `total: ${all.length} requests, ${(all.length / SECONDS).toFixed(0)} req/s, p50 ${pct(all, 50).toFixed(1)} ms, p99 ${pct(all, 99).toFixed(1)} ms, errors ${errors}`,
  );
  for (const [path, values] of latencies) {
    const sorted = values.sort((a, b) => a - b);
    console.log(
      `  ${path}: ${sorted.length} requests, p50 ${pct(sorted, 50).toFixed(1)} ms, p99 ${pct(sorted, 99).toFixed(1)} ms`,
    );
  }
  await app.close();
  await handle.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
