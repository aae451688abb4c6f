// Bots one worker carries: N bots over the 22 pairs on the paper exchange and PostgreSQL, a mix of Multigrid bots
// (market orders) and range grids (limit orders resting on the paper book, `BENCH_RANGE_SHARE` of them, default
// 0.3), every pair ticking once per second; measures tick-to-order latency (the tick a bot acts on →
// its placeOrder call, the supervisor's own /metrics histogram; a range grid's answer to a fill goes out after
// the fill is looked up and booked), and the memory a running bot holds. The scenarios, one after the other (the
// burst first, so its memory reading comes from a fresh process), then the market scenario again with Multigrid
// bots only, the mix's goal being the same p99:
//
//  1. market: prices are real Binance 1-minute closes (`BENCH_DATA`, ../shared/data or fixtures/backtest), one candle per second (60× real
//     time), each pair ticking at its own moment of the second as exchange streams do; bots start one after
//     another over a warm-up, as users start them, so their grids sit at different prices, and their grid
//     spacing differs (0.6–1.5 %, range grids 0.3–1.5 %) as users' strategies do. The target (5,000 bots, p99 under 50 ms) is about
//     this scenario's measured window.
//  2. burst: every bot created before the worker starts, so all of them buy grid 1 on the first tick of
//     their pair (the worst case: a worker restarting with thousands of fresh bots). Memory per running bot:
//     the resident and heap growth from the bots written to all of them running, after garbage collection,
//     read right after the burst and again after a minute of the market: pages the burst's garbage took
//     stay resident until V8 and the allocator hand them back, which the second reading shows.
//
// Run: npm run bench bots   (BENCH_BOTS=5000 BENCH_WARMUP=20 BENCH_SECONDS=30 BENCH_RANGE_SHARE=0.3;
// BENCH_ONLY=burst: the burst alone; PostgreSQL from TEST_DATABASE_URL or 127.0.0.1)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gunzipSync } from 'node:zlib';
import { apiKeys, bots, createTestDb, type Db, type DbHandle, users } from '@gridbot/db';
import {
  compileRules,
  createGridBot,
  createRange,
  type GridParams,
  rangeStartProblems,
} from '@gridbot/engine';
import { PaperExchange } from '@gridbot/exchange';
import { ManualFeed } from '@gridbot/exchange/testing';
import { getMarketRules, rangeStrategySchema, SYMBOLS } from '@gridbot/shared';
import { SecretBox } from '../src/lib/secret-box';
import { paperGateway } from '../src/modules/exchange';
import { SqlPaperStore } from '../src/modules/paper';
import { noMetrics } from '../src/ops/metrics';
import { simpleMultigrid } from '../src/testing/bot-fixtures';
import { BotSupervisor } from '../src/worker/bot-supervisor';
import { postgresSettings } from './support/postgres-settings';
import { statementsOver } from './support/postgres-statements';
import { sampleWaits } from './support/postgres-waits';

const BOTS = Number(process.env.BENCH_BOTS ?? 5000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
/** Seconds of the market after the burst before memory is read again (what a running bot holds once settled). */
const SETTLE_SECONDS = 60;
const BOTS_PER_USER = 10;
/** The share of the bots that are range grids, spread evenly over the bots (0: Multigrid only, 1: grids only). */
const RANGE_SHARE = Number(process.env.BENCH_RANGE_SHARE ?? 0.3);
/** The share the scenario running now writes: the comparison run sets it to 0. */
let rangeShare = RANGE_SHARE;
// The larger data set beside the repository when present (months of candles per pair), else the fixtures.
const SHARED_DATA = join(import.meta.dirname, '../../../../shared/data');
const DATA_DIR =
  process.env.BENCH_DATA ??
  (existsSync(SHARED_DATA) ? SHARED_DATA : join(import.meta.dirname, '../../../fixtures/backtest'));
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const ms = (v: number) => `${v.toFixed(1)} ms`;

/** Real 1-minute closes for each of the 22 pairs: its own file when there is one, else another pair's moves. */
function marketPaths(): Map<string, number[]> {
  const files = readdirSync(DATA_DIR).filter((f) => /^binance-spot-[A-Z]+USDT-1m-.*\.csv\.gz$/.test(f));
  const closes = (file: string) =>
    gunzipSync(readFileSync(join(DATA_DIR, file)))
      .toString('utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => Number(line.split(',')[4]));
  const own = new Map<string, number[]>();
  for (const file of files.sort()) {
    const symbol = file.split('-')[2]!;
    if (!own.has(symbol)) own.set(symbol, closes(file));
  }
  const donors = [...own.values()];
  const paths = new Map<string, number[]>();
  SYMBOLS.forEach((symbol, i) => {
    const path = own.get(symbol) ?? donors[i % donors.length]!;
    // Start each pair somewhere else in its file, so pairs sharing a donor do not move together.
    paths.set(symbol, path.slice(1000 + i * 1500));
  });
  return paths;
}

async function seedUsers(db: Db, count: number, secrets: SecretBox) {
  const rows = await db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        email: `b${i}@x.io`,
        username: `b${i}`,
        contactNo: '1',
        passwordHash: 'x',
        userCode: `U${i}`,
      })),
    )
    .returning({ id: users.id });
  await db
    .insert(apiKeys)
    .values(rows.map((u) => ({ userId: u.id, apiKey: 'k', secretSealed: secrets.seal('s') })));
  return rows.map((r) => r.id);
}

/**
 * Bot i's grid: 0.6 % to 1.5 % between buys and to the take-profit. Users' strategies differ; identical grids
 * started at the same price would all trade on the same tick forever, which is the burst scenario's job.
 */
function gridOf(i: number): GridParams {
  const pct = 0.6 + (Math.floor(i / SYMBOLS.length) % 10) * 0.1;
  return { ...simpleMultigrid, buyPct: [pct, pct], tpPct: [pct, pct, pct] } as GridParams;
}

/** Bot i is a range grid when the running count of grids steps up at i: an even spread at RANGE_SHARE. */
const isRange = (i: number) => Math.floor((i + 1) * rangeShare) > Math.floor(i * rangeShare);

/** Range grids written so far: a grid Start Grid would refuse is written as a Multigrid bot instead. */
let rangeBots = 0;

/**
 * Bot i's range grid around the pair's price: ±3 % to ±7.5 % in 10 to 19 arithmetic levels (spacing 0.3–1.5 %,
 * each covering twice the fee), 500 USDT: its start buys the coin for the sells above and rests every order.
 * Null when Start Grid would refuse it (`rangeStartProblems`): a pair replaying another pair's prices can make
 * the quantity per order fall below its step.
 */
function rangeRow(i: number, symbol: string, price: number) {
  const half = 0.03 + (Math.floor(i / SYMBOLS.length) % 10) * 0.005;
  const rules = getMarketRules(symbol, 'spot');
  const tick = Number(rules.tickSize);
  const onTick = (p: number) => Math.round(p / tick) * tick;
  const params = rangeStrategySchema.parse({
    type: 'range',
    lower: onTick(price * (1 - half)),
    upper: onTick(price * (1 + half)),
    grids: 10 + (i % 10),
  });
  const engineRules = compileRules(rules);
  if (rangeStartProblems(params, 500, price, engineRules, 'spot').length > 0) return null;
  const state = createRange({
    params,
    investment: 500,
    market: 'spot',
    rules: engineRules,
    startTimeMs: Date.now(),
  });
  rangeBots += 1;
  return { botType: 'range' as const, strategySnapshot: params, engineState: state };
}

async function insertBots(
  db: Db,
  userIds: string[],
  from: number,
  count: number,
  priceOf: (symbol: string) => number,
): Promise<string[]> {
  const rows = await db
    .insert(bots)
    .values(
      Array.from({ length: count }, (_, k) => {
        const i = from + k;
        const symbol = SYMBOLS[i % SYMBOLS.length]!;
        const common = {
          userId: userIds[i % userIds.length]!,
          strategyName: 'Simple',
          symbol,
          category: 'Spot' as const,
          investment: '500',
        };
        const grid = isRange(i) ? rangeRow(i, symbol, priceOf(symbol)) : null;
        if (grid !== null)
          return { ...common, ...grid, engineState: grid.engineState as unknown as Record<string, unknown> };
        const state = createGridBot({
          params: gridOf(i),
          investment: 500,
          market: 'spot',
          startTimeMs: Date.now(),
        });
        return {
          ...common,
          botType: 'multigrid' as const,
          strategySnapshot: {} as never,
          engineState: state as unknown as Record<string, unknown>,
        };
      }),
    )
    .returning({ id: bots.id });
  return rows.map((r) => r.id);
}

interface World {
  handle: DbHandle;
  feed: ManualFeed;
  paper: PaperExchange;
  supervisor: BotSupervisor;
  userIds: string[];
  latencies: number[];
  /** The same by order type: market orders (grid bots'), limit orders (range grids' answers to fills). */
  byType: { market: number[]; limit: number[] };
  /** The grids' answers again, from the exchange showing the fill each answers (the runtime's part). */
  answers: number[];
  /** The pair's price on the feed now: where a range grid starting now is centred. */
  priceOf: (symbol: string) => number;
}

async function world(paths: Map<string, number[]>): Promise<World> {
  rangeBots = 0;
  const handle = await createTestDb();
  console.log(await postgresSettings(handle.db));
  const secrets = SecretBox.fromKey(Buffer.alloc(32, 2));
  const feed = new ManualFeed(
    Object.fromEntries(SYMBOLS.map((s) => [`spot:${s}`, String(paths.get(s)![0])])),
  );
  const paper = new PaperExchange({
    store: new SqlPaperStore(handle.db),
    feed,
    startFunds: [{ wallet: 'spot', asset: 'USDT', amount: '1000000' }],
  });
  await paper.start();
  const userIds = await seedUsers(handle.db, Math.ceil(BOTS / BOTS_PER_USER), secrets);
  const latencies: number[] = [];
  const byType = { market: [] as number[], limit: [] as number[] };
  const answers: number[] = [];
  const supervisor = new BotSupervisor({
    db: handle.db,
    feed,
    exchanges: paperGateway(paper),
    loadKeys: async () => ({ apiKey: 'k', secret: 's' }),
    now: () => Date.now(),
    log: process.env.BENCH_LOG ? (message, fields) => console.log(message, JSON.stringify(fields)) : () => {},
    metrics: {
      ...noMetrics,
      tickToOrder: (seconds, orderType) => {
        latencies.push(seconds * 1000);
        byType[orderType].push(seconds * 1000);
      },
      fillToAnswer: (seconds) => {
        answers.push(seconds * 1000);
      },
    },
  });
  const priceOf = (symbol: string) => Number(feed.lastPrice(symbol, 'spot'));
  return { handle, feed, paper, supervisor, userIds, latencies, byType, answers, priceOf };
}

/** Plays the paths: pair i ticks at i/22 of every second. Calls `everySecond` at the start of each second. */
async function play(
  feed: ManualFeed,
  paths: Map<string, number[]>,
  seconds: number,
  startCandle: number,
  everySecond: (second: number) => Promise<void> = async () => undefined,
) {
  const t0 = performance.now();
  for (let second = 0; second < seconds; second += 1) {
    await everySecond(second);
    for (const [i, symbol] of SYMBOLS.entries()) {
      await sleep(t0 + (second + i / SYMBOLS.length) * 1000 - performance.now());
      const path = paths.get(symbol)!;
      feed.setPrice(symbol, 'spot', String(path[(startCandle + second) % path.length]));
    }
  }
  await sleep(t0 + seconds * 1000 - performance.now());
}

function report(label: string, values: number[], seconds: number, from = 'tick') {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(
    `${label}: ${sorted.length} orders (${(sorted.length / seconds).toFixed(0)}/s), ${from}→order p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? 0)}`,
  );
}

async function marketScenario(paths: Map<string, number[]>) {
  const w = await world(paths);
  await w.supervisor.start();
  // Warm-up: bots start one after another (BOTS / WARMUP a second), each buying grid 1 at its own price.
  const perSecond = Math.ceil(BOTS / WARMUP);
  let started = 0;
  await play(w.feed, paths, WARMUP, 0, async () => {
    const count = Math.min(perSecond, BOTS - started);
    if (count <= 0) return;
    const ids = await insertBots(w.handle.db, w.userIds, started, count, w.priceOf);
    started += count;
    void Promise.all(ids.map((id) => w.supervisor.add(id)));
  });
  const warm = w.latencies.splice(0);
  w.byType.market.splice(0);
  w.byType.limit.splice(0);
  w.answers.splice(0);
  console.log(
    `market: ${w.supervisor.size} bots running after a ${WARMUP} s warm-up (${rangeBots} range grids written)`,
  );
  report(`  warm-up (bots starting, ${BOTS} first buys)`, warm, WARMUP);
  const waits = sampleWaits(w.handle.db);
  const statements = statementsOver(w.handle.db);
  await play(w.feed, paths, SECONDS, WARMUP);
  const waited = await waits.stop();
  const spent = await statements.stop();
  report(`  measured ${SECONDS} s, all ${w.supervisor.size} bots running`, w.latencies, SECONDS);
  if (w.byType.limit.length > 0) {
    // The same window by order type: the grids' limit orders wait for the fill they answer to be shown and
    // booked; the market orders are the Multigrid bots' (and a grid's start or stop).
    report('    of which market orders', w.byType.market, SECONDS);
    report('    of which limit orders (range grids)', w.byType.limit, SECONDS);
    // The same answers from the exchange showing the fill: what the runtime spends on them (booking the fill
    // with the answer's intent), without the exchange's time to fill the order and show it.
    report('      the same from the fill shown', w.answers, SECONDS, 'fill shown');
  }
  console.log(`  ${waited}`);
  console.log(`  ${spent.replace(/\n/g, '\n  ')}`);
  await w.supervisor.stop();
  await w.paper.stop();
  await w.handle.close();
}

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Resident and heap bytes once garbage is collected, so two readings differ by what is still held. */
function heldMemory() {
  collectGarbage();
  collectGarbage();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heap: heapUsed + external + arrayBuffers };
}

async function burstScenario(paths: Map<string, number[]>) {
  const w = await world(paths);
  for (let from = 0; from < BOTS; from += 1000)
    await insertBots(w.handle.db, w.userIds, from, Math.min(1000, BOTS - from), w.priceOf);
  const idle = heldMemory();
  const loadStart = performance.now();
  await w.supervisor.start();
  console.log(
    `burst: ${w.supervisor.size} bots loaded in ${((performance.now() - loadStart) / 1000).toFixed(1)} s (${rangeBots} range grids)`,
  );
  await play(w.feed, paths, 3, 0);
  report("  first ticks: every bot's first order at once", w.latencies, 3);
  // What the running bots hold: runner, engine state, caches and their paper books, after each bought grid 1.
  const running = heldMemory();
  const perBot = (bytes: number) => `${(bytes / w.supervisor.size / 1024).toFixed(1)} KB`;
  console.log(
    `  memory per running bot right after the burst: ${perBot(running.rss - idle.rss)} resident, ${perBot(running.heap - idle.heap)} heap (goal ≤ 20 KB resident)`,
  );
  await play(w.feed, paths, SETTLE_SECONDS, 3);
  const settled = heldMemory();
  console.log(
    `  memory per running bot after ${SETTLE_SECONDS} s more of the market: ${perBot(settled.rss - idle.rss)} resident, ${perBot(settled.heap - idle.heap)} heap (goal ≤ 20 KB resident)`,
  );
  await w.supervisor.stop();
  await w.paper.stop();
  await w.handle.close();
}

/** How many of the first `n` bots are range grids. */
const ranges = (n: number) => Math.floor(n * RANGE_SHARE);

async function main() {
  if (!existsSync(DATA_DIR)) throw new Error(`no market data at ${DATA_DIR} (set BENCH_DATA)`);
  console.log(
    `${cpus()[0]?.model} × ${cpus().length}, node ${process.version}; ${BOTS} bots (${ranges(BOTS)} range grids, the rest Multigrid), ${Math.ceil(BOTS / BOTS_PER_USER)} users, 22 pairs at 1 tick/s`,
  );
  const paths = marketPaths();
  // The burst first: its memory reading is then taken in a fresh process, not in pages a previous scenario
  // freed and the allocator kept.
  await burstScenario(paths);
  if (process.env.BENCH_ONLY === 'burst') return;
  await marketScenario(paths);
  // The goal for the mix is the p99 of Multigrids alone: measured beside it, in this run, on this machine.
  if (RANGE_SHARE > 0) {
    rangeShare = 0;
    console.log('\nfor comparison, the same with Multigrid bots only:');
    await marketScenario(paths);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
