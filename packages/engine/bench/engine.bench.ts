/**
 * Engine and backtest benchmark: over a year of 1-minute candles, side by side, the backtest loop
 * alone (path fill model of docs/trading-rules.md §2.5, one Multigrid bot) and the backtest CLI end
 * to end (compiled JavaScript, twelve monthly .csv.gz files, output written); then the raw step loop
 * at four ticks per candle and the time for 10,000 bots to each take one tick. Run:
 * `npm run bench engine`.
 *
 * No single real 1m file covers a year, so the year is built from every BTCUSDT spot 1m file of the
 * benchmark data (`BENCH_DATA`, else a `shared/data` directory beside the repository when present, else the
 * committed fixtures), each segment rescaled to start at the previous segment's close (real returns, no
 * price jumps), looped until 525,600 candles.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { getMarketRules, rangeStrategySchema } from '@gridbot/shared';
import {
  applyFill,
  CANDLE_HEADER,
  type Candles,
  candleTicks,
  compileRules,
  createGridBot,
  createRange,
  type GridBotState,
  type GridParams,
  PathBacktest,
  RangeBacktest,
  rangeStartProblems,
  simulateFill,
  step,
  strategyFrom,
} from '../src/index';
import { fixturePath, loadCandles, MARKET_DATA_DIR, readFixture } from '../src/testing/data';

const YEAR_CANDLES = 525_600;
const SHARED_DATA = fileURLToPath(new URL('../../../../shared/data', import.meta.url));
const DATA_DIRS = process.env.BENCH_DATA
  ? [process.env.BENCH_DATA]
  : existsSync(SHARED_DATA)
    ? [SHARED_DATA]
    : [join(MARKET_DATA_DIR, 'backtest'), join(MARKET_DATA_DIR, 'replay')];
const FILES = DATA_DIRS.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => /^binance-spot-BTCUSDT-1m-.*\.csv\.gz$/.test(name))
    .sort()
    .map((name) => join(dir, name)),
);

/** Four ticks per candle (docs/trading-rules.md §2.5) for a year of chained real candles. */
function yearOfTicks(): { prices: Float64Array; times: Float64Array; realCandles: number } {
  const segments: Candles[] = FILES.map(loadCandles);
  const realCandles = segments.reduce((s, c) => s + c.open.length, 0);
  const prices = new Float64Array(YEAR_CANDLES * 4);
  const times = new Float64Array(YEAR_CANDLES * 4);
  const four = new Float64Array(4);
  let scale = 1;
  let lastClose = 0;
  let n = 0;
  while (n < YEAR_CANDLES) {
    for (const seg of segments) {
      if (lastClose > 0) scale = lastClose / (seg.open[0] as number);
      for (let i = 0; i < seg.open.length && n < YEAR_CANDLES; i++, n++) {
        candleTicks(seg, i, four);
        for (let j = 0; j < 4; j++) {
          // Rounded to the cent so rescaled prices stay plausible exchange prices.
          prices[n * 4 + j] = Math.round((four[j] as number) * scale * 100) / 100;
          times[n * 4 + j] = 1_700_000_000_000 + n * 60_000;
        }
      }
      lastClose = prices[n * 4 - 1] as number;
      if (n >= YEAR_CANDLES) break;
    }
  }
  return { prices, times, realCandles };
}

/** The same year as whole candles (open, high, low, close rescaled and rounded to the cent). */
function yearOfCandles(): Candles {
  const segments: Candles[] = FILES.map(loadCandles);
  const c: Candles = {
    openTimeMs: new Float64Array(YEAR_CANDLES),
    open: new Float64Array(YEAR_CANDLES),
    high: new Float64Array(YEAR_CANDLES),
    low: new Float64Array(YEAR_CANDLES),
    close: new Float64Array(YEAR_CANDLES),
  };
  const cents = (v: number) => Math.round(v * 100) / 100;
  let scale = 1;
  let lastClose = 0;
  let n = 0;
  while (n < YEAR_CANDLES) {
    for (const seg of segments) {
      if (lastClose > 0) scale = lastClose / (seg.open[0] as number);
      for (let i = 0; i < seg.open.length && n < YEAR_CANDLES; i++, n++) {
        c.openTimeMs[n] = Date.UTC(2025, 0, 1) + n * 60_000;
        c.open[n] = cents((seg.open[i] as number) * scale);
        c.high[n] = cents((seg.high[i] as number) * scale);
        c.low[n] = cents((seg.low[i] as number) * scale);
        c.close[n] = cents((seg.close[i] as number) * scale);
      }
      lastClose = c.close[n - 1] as number;
      if (n >= YEAR_CANDLES) break;
    }
  }
  return c;
}

const rules = compileRules(getMarketRules('BTCUSDT', 'spot'));
const FEE = 0.1;

function runYear(
  params: GridParams,
  prices: Float64Array,
  times: Float64Array,
): { state: GridBotState; fills: number } {
  let state = createGridBot({ params, investment: 10_000, market: 'spot', startTimeMs: times[0] as number });
  let fills = 0;
  const tick = { price: 0, timeMs: 0 };
  for (let i = 0; i < prices.length; i++) {
    tick.price = prices[i] as number;
    tick.timeMs = times[i] as number;
    const r = step(state, tick, rules);
    state = r.state;
    for (const intent of r.intents) {
      state = applyFill(state, simulateFill(intent, tick.price, tick.timeMs, FEE));
      fills++;
    }
  }
  return { state, fills };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function benchOneBot(prices: Float64Array, times: Float64Array): void {
  const params = strategyFrom(readFixture('multigrid-10.json'));
  runYear(params, prices, times); // warm-up
  const runs: number[] = [];
  const cpuRuns: number[] = [];
  let fills = 0;
  let booked = 0;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const out = runYear(params, prices, times);
    runs.push(performance.now() - t0);
    const cu = process.cpuUsage(c0);
    cpuRuns.push((cu.user + cu.system) / 1000);
    fills = out.fills;
    booked = out.state.account.bookedProfit;
  }
  const ms = median(runs);
  const rate = prices.length / (ms / 1000);
  console.log(
    `one Multigrid bot (10 grids), ${prices.length.toLocaleString('en')} ticks = one year of 1m candles × 4`,
  );
  console.log(`  ${fills} fills, booked ${booked.toFixed(2)} USDT on 10,000 USDT`);
  console.log(
    `  median of 5 runs: ${ms.toFixed(1)} ms → ${(rate / 1e6).toFixed(2)} M ticks/s (target > 5 M)`,
  );
  const cpuMs = median(cpuRuns);
  console.log(
    `  median CPU time: ${cpuMs.toFixed(1)} ms → ${(prices.length / cpuMs / 1000).toFixed(2)} M ticks/s`,
  );
}

/** The backtest loop alone: path model, fills not recorded. Returns the median candles/s. */
function benchPathLoop(candles: Candles): { wall: number; cpu: number } {
  const params = strategyFrom(readFixture('multigrid-10.json'));
  const run = () => {
    const bot = createGridBot({ params, investment: 10_000, market: 'spot', startTimeMs: 0 });
    const bt = new PathBacktest(bot, rules, { feePct: FEE, record: false });
    bt.feed(candles);
    return bt.finish().summary;
  };
  run(); // warm-up
  const runs: number[] = [];
  const cpuRuns: number[] = [];
  let summary = run();
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    summary = run();
    runs.push(performance.now() - t0);
    const cu = process.cpuUsage(c0);
    cpuRuns.push((cu.user + cu.system) / 1000);
  }
  const ms = median(runs);
  const rate = candles.openTimeMs.length / (ms / 1000);
  const cpuMs = median(cpuRuns);
  console.log(
    `backtest loop alone (path model), one Multigrid bot (10 grids), ${YEAR_CANDLES.toLocaleString('en')} candles`,
  );
  console.log(`  ${summary.trades} fill rows, booked ${summary.bookedProfit.toFixed(2)} USDT on 10,000 USDT`);
  console.log(
    `  median of 5 runs: ${ms.toFixed(1)} ms → ${(rate / 1e6).toFixed(2)} M candles/s (goal ≥ 3 M)`,
  );
  const cpuRate = YEAR_CANDLES / (cpuMs / 1000);
  console.log(`  median CPU time: ${cpuMs.toFixed(1)} ms → ${(cpuRate / 1e6).toFixed(2)} M candles/s`);
  return { wall: rate, cpu: cpuRate };
}

/** The CLI end to end over twelve monthly gzip files of the same year. Returns the median wall ms. */
function benchCli(candles: Candles): { wall: number; cpu: number } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-backtest-'));
  try {
    const files: string[] = [];
    const perMonth = Math.ceil(YEAR_CANDLES / 12);
    for (let m = 0; m < 12; m++) {
      const rows = [CANDLE_HEADER];
      for (let i = m * perMonth; i < Math.min(YEAR_CANDLES, (m + 1) * perMonth); i++) {
        rows.push(
          `${candles.openTimeMs[i]},${candles.open[i]},${candles.high[i]},${candles.low[i]},${candles.close[i]},1`,
        );
      }
      const path = join(dir, `binance-spot-BTCUSDT-1m-month${String(m + 1).padStart(2, '0')}.csv.gz`);
      writeFileSync(path, gzipSync(`${rows.join('\n')}\n`));
      files.push(path);
    }
    const script = fileURLToPath(new URL('../../../scripts/backtest.mjs', import.meta.url));
    execFileSync(process.execPath, [script, '--help']); // builds the bundle, not timed
    const bundle = fileURLToPath(new URL('../dist/backtest.mjs', import.meta.url));
    const args = [
      bundle,
      '--strategy',
      fixturePath('multigrid-10.json'),
      ...files.flatMap((f) => ['--candles', f]),
      '--symbol',
      'BTCUSDT',
      '--investment',
      '10000',
      '--json',
    ];
    const runs: number[] = [];
    const cpuRuns: number[] = [];
    let bytes = 0;
    for (let r = 0; r < 3; r++) {
      // GNU time reports the child's CPU time (user and system seconds) on the last line of stderr.
      const t0 = performance.now();
      const out = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, ...args], {
        maxBuffer: 256 * 1024 * 1024,
      });
      runs.push(performance.now() - t0);
      if (out.status !== 0) throw new Error(`backtest CLI failed: ${out.stderr.toString()}`);
      const last = out.stderr.toString().trim().split('\n').pop() ?? '';
      const [user = 0, sys = 0] = last.split(' ').map(Number);
      cpuRuns.push((user + sys) * 1000);
      bytes = out.stdout.length;
    }
    const ms = median(runs);
    const cpuMs = median(cpuRuns);
    console.log(
      `backtest CLI end to end: node dist/backtest.mjs, 12 monthly .csv.gz files, --json (${(bytes / 1e6).toFixed(1)} MB out)`,
    );
    console.log(`  median of 3 runs: ${ms.toFixed(0)} ms wall (goal ≤ 1,000 ms), ${cpuMs.toFixed(0)} ms CPU`);
    return { wall: ms, cpu: cpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function benchManyBots(prices: Float64Array, times: Float64Array): void {
  const BOTS = 10_000;
  const shapes = ['multigrid-5.json', 'multigrid-10.json', 'scalping-5.json'].map((f) =>
    strategyFrom(readFixture(f)),
  );
  // Each bot starts at a different point of the year and runs 2,000 ticks, so the fleet holds a mix of
  // flat bots, open lots, armed take-profits and armed trailing buys, as a live worker would.
  const bots: GridBotState[] = [];
  const tick = { price: 0, timeMs: 0 };
  for (let b = 0; b < BOTS; b++) {
    const params = shapes[b % shapes.length] as GridParams;
    let s = createGridBot({ params, investment: 1000 + (b % 50) * 100, market: 'spot', startTimeMs: 0 });
    const from = (b * 97) % (prices.length - 3000);
    for (let i = from; i < from + 2000; i++) {
      tick.price = prices[i] as number;
      tick.timeMs = times[i] as number;
      const r = step(s, tick, rules);
      s = r.state;
      for (const intent of r.intents) s = applyFill(s, simulateFill(intent, tick.price, tick.timeMs, FEE));
    }
    bots.push(s);
  }
  const open = bots.reduce((n, s) => n + s.lots.length, 0);
  const runs: number[] = [];
  let intents = 0;
  const cpuRuns: number[] = [];
  for (let r = 0; r < 11; r++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    intents = 0;
    for (let b = 0; b < BOTS; b++) {
      const s = bots[b] as GridBotState;
      const from = (b * 97) % (prices.length - 3000);
      // The next real tick of each bot's own price path.
      tick.price = prices[from + 2000 + r] as number;
      tick.timeMs = times[from + 2000 + r] as number;
      const res = step(s, tick, rules);
      let next = res.state;
      for (const intent of res.intents) {
        next = applyFill(next, simulateFill(intent, tick.price, tick.timeMs, FEE));
        intents++;
      }
      bots[b] = next;
    }
    runs.push(performance.now() - t0);
    const cu = process.cpuUsage(c0);
    cpuRuns.push((cu.user + cu.system) / 1000);
  }
  console.log(`10,000 bots (Multigrid 5/10 grids, Scalping 5), ${open} open lots, each taking one tick`);
  console.log(
    `  median of 11 rounds: ${median(runs).toFixed(2)} ms per round incl. fills (${intents} intents in the last) (target < 20 ms)`,
  );
  console.log(`  CPU time: median ${median(cpuRuns).toFixed(2)} ms per round`);
}

/**
 * The backtest loop alone for a range grid (docs/trading-rules.md §2.6): 100 geometric levels from 30 % below
 * to 30 % above the first open, trailing up, resting orders filled on the path. Returns candles/s.
 */
function benchRangeLoop(candles: Candles): { wall: number; cpu: number } {
  const open = candles.open[0] as number;
  const params = rangeStrategySchema.parse({
    type: 'range',
    lower: Math.round(open * 0.7),
    upper: Math.round(open * 1.3),
    grids: 100,
    mode: 'geometric',
    trailingUp: true,
  });
  const problems = rangeStartProblems(params, 10_000, open, rules, 'spot');
  if (problems.length > 0) throw new Error(problems.join('; '));
  const run = () => {
    const grid = createRange({ params, investment: 10_000, market: 'spot', rules, startTimeMs: 0 });
    const bt = new RangeBacktest(grid, rules, { record: false });
    bt.feed(candles);
    return bt.finish().summary;
  };
  run(); // warm-up
  const runs: number[] = [];
  const cpuRuns: number[] = [];
  let summary = run();
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    summary = run();
    runs.push(performance.now() - t0);
    const cu = process.cpuUsage(c0);
    cpuRuns.push((cu.user + cu.system) / 1000);
  }
  const ms = median(runs);
  const rate = candles.openTimeMs.length / (ms / 1000);
  const cpuRate = YEAR_CANDLES / (median(cpuRuns) / 1000);
  console.log(
    `backtest loop alone (path model), one range grid (100 geometric levels, trailing up), ${YEAR_CANDLES.toLocaleString('en')} candles`,
  );
  console.log(
    `  ${summary.trades} fills, ${summary.matchedTrades} matched, grid profit ${summary.gridProfit.toFixed(2)} USDT on 10,000 USDT`,
  );
  console.log(
    `  median of 5 runs: ${ms.toFixed(1)} ms → ${(rate / 1e6).toFixed(2)} M candles/s (goal ≥ 3 M)`,
  );
  console.log(
    `  median CPU time: ${median(cpuRuns).toFixed(1)} ms → ${(cpuRate / 1e6).toFixed(2)} M candles/s`,
  );
  return { wall: rate, cpu: cpuRate };
}

const cpu = cpus()[0];
console.log(
  `machine: ${cpu?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${platform()} ${release()}, node ${process.version}`,
);
console.log('command: npm run bench engine   (or: npx tsx packages/engine/bench/engine.bench.ts)');
const t0 = performance.now();
const { prices, times, realCandles } = yearOfTicks();
console.log(
  `data: ${realCandles.toLocaleString('en')} real BTCUSDT 1m candles from ${FILES.length} files, chained and looped to ${YEAR_CANDLES.toLocaleString('en')} candles (${(performance.now() - t0).toFixed(0)} ms to load)`,
);
const candles = yearOfCandles();
const loopRate = benchPathLoop(candles);
const rangeRate = benchRangeLoop(candles);
const cliMs = benchCli(candles);
console.log('');
console.log(
  `load average: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${cpus().length} cores`,
);
console.log('| year of 1m candles (525,600) | wall clock | CPU time | goal |');
console.log('|---|---|---|---|');
console.log(
  `| backtest loop alone (path model) | ${(loopRate.wall / 1e6).toFixed(2)} M candles/s | ${(loopRate.cpu / 1e6).toFixed(2)} M candles/s | ≥ 3 M candles/s |`,
);
console.log(
  `| backtest loop alone, range grid | ${(rangeRate.wall / 1e6).toFixed(2)} M candles/s | ${(rangeRate.cpu / 1e6).toFixed(2)} M candles/s | ≥ 3 M candles/s |`,
);
console.log(
  `| backtest CLI end to end | ${(cliMs.wall / 1000).toFixed(2)} s | ${(cliMs.cpu / 1000).toFixed(2)} s | ≤ 1.0 s |`,
);
console.log('');
benchOneBot(prices, times);
benchManyBots(prices, times);
