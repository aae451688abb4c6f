/**
 * Engine benchmark: ticks/s of one Multigrid bot over a year of 1-minute candles, and the time for
 * 10,000 bots to each take one tick. Run: `npm run bench engine`.
 *
 * No single real 1m file covers a year, so the year is built from every BTCUSDT spot 1m file of the
 * benchmark data (`BENCH_DATA`, else a `shared/data` directory beside the repository when present, else the
 * committed fixtures), each segment rescaled to start at the previous segment's close (real returns, no
 * price jumps), looped until 525,600 candles.
 */
import { existsSync, readdirSync } from 'node:fs';
import { cpus, platform, release } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { getMarketRules } from '@gridbot/shared';
import {
  applyFill,
  type Candles,
  candleTicks,
  compileRules,
  createGridBot,
  type GridBotState,
  type GridParams,
  simulateFill,
  step,
  strategyFrom,
} from '../src/index';
import { loadCandles, MARKET_DATA_DIR, readFixture } from '../src/testing/data';

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

/** Four ticks per candle (DESIGN §2.5) for a year of chained real candles. */
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
benchOneBot(prices, times);
benchManyBots(prices, times);
