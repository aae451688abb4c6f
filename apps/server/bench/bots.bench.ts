// Bots one worker carries (issue #6 bench): N bots over the 22 pairs on the paper exchange and PostgreSQL,
// every pair ticking once per second; measures tick-to-order latency (feed tick → placeOrder call).
// Run: npm run bench bots   (BENCH_BOTS=5000 BENCH_SECONDS=20, PostgreSQL from TEST_DATABASE_URL or 127.0.0.1)
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { apiKeys, bots, createTestDb, users } from '@gridbot/db';
import { createGridBot } from '@gridbot/engine';
import { type Exchange, PaperExchange } from '@gridbot/exchange';
import { ManualFeed } from '@gridbot/exchange/testing';
import { SYMBOLS } from '@gridbot/shared';
import { SecretBox } from '../src/lib/secret-box';
import { paperGateway } from '../src/modules/exchange/exchange-gateway';
import { SqlPaperStore } from '../src/modules/paper/sql-paper-store';
import { simpleMultigrid } from '../src/testing/bot-fixtures';
import { BotSupervisor } from '../src/worker/bot-supervisor';

const BOTS = Number(process.env.BENCH_BOTS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const USERS = Math.ceil(BOTS / 10);
// Price move per second per pair: ±WALK/2, uniform. 0.004 (±0.2 %) is several times BTC's real 1 s moves.
const WALK = Number(process.env.BENCH_WALK ?? 0.004);
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main() {
  console.log(
    `${cpus()[0]?.model} × ${cpus().length}, node ${process.version}; ${BOTS} bots, ${USERS} users, ${SECONDS} s`,
  );
  const handle = await createTestDb();
  const secrets = SecretBox.fromKey(Buffer.alloc(32, 2));
  const startPrices = new Map(SYMBOLS.map((s, i) => [s, 10 + i * 7.3]));
  const feed = new ManualFeed(
    Object.fromEntries([...startPrices].map(([s, p]) => [`spot:${s}`, p.toFixed(2)])),
  );
  const paper = new PaperExchange({
    store: new SqlPaperStore(handle.db),
    feed,
    startFunds: [{ wallet: 'spot', asset: 'USDT', amount: '1000000' }],
  });
  await paper.start();

  const userRows = await handle.db
    .insert(users)
    .values(
      Array.from({ length: USERS }, (_, i) => ({
        email: `b${i}@x.io`,
        username: `b${i}`,
        contactNo: '1',
        passwordHash: 'x',
        userCode: `U${i}`,
      })),
    )
    .returning({ id: users.id });
  await handle.db
    .insert(apiKeys)
    .values(userRows.map((u) => ({ userId: u.id, apiKey: 'k', secretSealed: secrets.seal('s') })));
  const state = createGridBot({
    params: simpleMultigrid,
    investment: 500,
    market: 'spot',
    startTimeMs: Date.now(),
  });
  for (let from = 0; from < BOTS; from += 1000) {
    await handle.db.insert(bots).values(
      Array.from({ length: Math.min(1000, BOTS - from) }, (_, k) => {
        const i = from + k;
        return {
          userId: userRows[i % USERS]!.id,
          botType: 'multigrid' as const,
          strategyName: 'Simple',
          strategySnapshot: {} as never,
          symbol: SYMBOLS[i % SYMBOLS.length]!,
          category: 'Spot' as const,
          investment: '500',
          engineState: state as unknown as Record<string, unknown>,
        };
      }),
    );
  }

  const tickAt = new Map<string, number>();
  const latencies: number[] = [];
  const timed = (inner: Exchange): Exchange =>
    new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop !== 'placeOrder') return Reflect.get(target, prop, receiver);
        return (input: Parameters<Exchange['placeOrder']>[0]) => {
          latencies.push(performance.now() - (tickAt.get(input.symbol) ?? performance.now()));
          return target.placeOrder(input);
        };
      },
    });
  const gateway = paperGateway(paper);
  const supervisor = new BotSupervisor({
    db: handle.db,
    feed,
    exchanges: { ...gateway, forUser: (id, keys) => timed(gateway.forUser(id, keys)) },
    loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
    now: () => Date.now(),
    log: () => {},
  });
  const loadStart = performance.now();
  await supervisor.start();
  console.log(
    `supervisor loaded ${supervisor.size} bots in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`,
  );

  // First second: every bot buys grid 1 at once (the burst). Then a random walk of ±1.5 % a second.
  let ticks = 0;
  for (let second = 0; second < SECONDS; second += 1) {
    const started = performance.now();
    for (const [symbol, price] of startPrices) {
      const next = price * (1 + (Math.random() - 0.5) * WALK);
      startPrices.set(symbol, next);
      tickAt.set(symbol, performance.now());
      feed.setPrice(symbol, 'spot', next.toFixed(2));
      ticks += 1;
    }
    const spent = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - spent)));
  }
  await supervisor.stop();
  await paper.stop();
  const burst = latencies.slice(0, BOTS).sort((a, b) => a - b);
  const steady = latencies.slice(BOTS).sort((a, b) => a - b);
  const fmt = (v: number) => `${v.toFixed(1)} ms`;
  console.log(`ticks published: ${ticks} (22 pairs × 1/s); orders: ${latencies.length}`);
  console.log(
    `first-second burst (every bot buys grid 1): ${burst.length} orders, tick→order p50 ${fmt(percentile(burst, 50))}, p99 ${fmt(percentile(burst, 99))}`,
  );
  console.log(
    `steady state: ${steady.length} orders, tick→order p50 ${fmt(percentile(steady, 50))}, p99 ${fmt(percentile(steady, 99))}`,
  );
  await handle.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
