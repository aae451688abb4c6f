// `npm run bench backtest-web`: the browser backtest in headless Chromium against the production build as the
// server serves it (compressed), on real Binance 1-minute candles replayed from the benchmark data (BENCH_DATA,
// else ../shared/data beside the repository): 90 days (129,600 candles) backtested in one worker; a
// 100-combination sweep over 30 days in a pool of workers; the bytes the 90 days take over the wire; and
// the longest task on the page's main thread meanwhile (Long Tasks API). The figures docs/benchmarks.md quotes.
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startAppServer } from '../../../e2e/support/app-server';
// @ts-expect-error plain ESM script without types
import { buildWebIfStale } from '../../../scripts/build-web-if-stale.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DEMO = { email: 'demo@gridbot.local', password: 'demo1234' };
const DATA = process.env.BENCH_DATA ?? fileURLToPath(new URL('../../../../shared/data', import.meta.url));
const FILE = 'binance-spot-BTCUSDT-1m-20250520-20250818.csv.gz';
const MINUTE = 60_000;
const GOAL = { run90dMs: 300, sweep100Ms: 5000, wireBytes: 1.5 * 1024 * 1024, longTaskMs: 50 };
const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The bytes of a response as sent with brotli/gzip accepted (what a browser downloads). */
function wireBytes(url: string, token: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () =>
          resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function main() {
  (buildWebIfStale as (mode: string) => void)('production');
  const worker = readdirSync(join(root, 'apps/web/dist/assets')).find((f) =>
    /^backtest\.worker-.*\.js$/.test(f),
  );
  if (!worker) throw new Error('no backtest worker in the build');
  // A replay directory with only the 90-day file, so the candle service reads nothing else.
  const dir = mkdtempSync(join(tmpdir(), 'bench-candles-'));
  symlinkSync(join(DATA, FILE), join(dir, FILE));
  const firstMs = Number(
    readFileSync(join(DATA, 'manifest.json'), 'utf8').match(
      new RegExp(`"file": "${FILE}"[\\s\\S]*?"start_ms": (\\d+)`),
    )?.[1],
  );
  const server = await startAppServer({ MARKET_FEED: 'replay', MARKET_REPLAY_DIR: dir });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  let failed = false;
  try {
    const login = (await (
      await fetch(`${server.url}/api/cyborxlogin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(DEMO),
      })
    ).json()) as { token: string };
    const from = Math.ceil(firstMs / MINUTE) * MINUTE;
    const url90 = `/api/candles?symbol=BTCUSDT&category=spot&interval=1m&from=${from}&to=${from + 90 * 1440 * MINUTE}`;
    const url30 = `/api/candles?symbol=BTCUSDT&category=spot&interval=1m&from=${from}&to=${from + 30 * 1440 * MINUTE}`;
    const wire = await wireBytes(`${server.url}${url90}`, login.token);
    const strategy = {
      type: 'multigrid',
      ...JSON.parse(
        readFileSync(join(root, 'packages/engine/src/testing/fixtures/multigrid-10.json'), 'utf8'),
      ),
    };
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${server.url}/`);
    // tsx keeps function names with a `__name` helper that the page does not have.
    await page.evaluate('globalThis.__name = (f) => f');
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const figures = await page.evaluate(
      async ({ workerUrl, token, url90, url30, strategy }) => {
        let longest = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) longest = Math.max(longest, e.duration);
        }).observe({ type: 'longtask', buffered: false });
        const input = { strategy, symbol: 'BTCUSDT', category: 'spot', investment: 10_000 };
        let id = 0;
        const run = (w: Worker, candlesUrl: string, message: Record<string, unknown> = {}) =>
          new Promise<{ ms: number; candles: number; trades: number }>((resolve, reject) => {
            const my = ++id;
            const t0 = performance.now();
            w.onmessage = (e) => {
              const m = e.data;
              if (m.id !== my || m.type === 'progress') return;
              if (m.type === 'failed') reject(new Error(m.message));
              else
                resolve({
                  ms: performance.now() - t0,
                  candles: m.candles,
                  trades: m.outcome.summary?.trades ?? -1,
                });
            };
            w.postMessage({ type: 'run', id: my, candlesUrl, token, input, ...message });
          });
        const one = new Worker(workerUrl, { type: 'module' });
        const firstRun = await run(one, url90); // fetch + decode + backtest
        const warm: number[] = [];
        for (let i = 0; i < 3; i++) warm.push((await run(one, url90)).ms); // candles already in the worker
        one.terminate();
        const longestSingle = longest;
        // The sweep: 100 runs (10 take-profits × 10 spacings), figures only, over a pool as the app makes it.
        const size = Math.max(2, Math.min(4, navigator.hardwareConcurrency || 2));
        const pool = Array.from({ length: size }, () => new Worker(workerUrl, { type: 'module' }));
        const n = strategy.No_of_order;
        const cells: Record<string, unknown>[] = [];
        for (let b = 1; b <= 10; b++)
          for (let t = 1; t <= 10; t++)
            cells.push({
              ...strategy,
              buy_percentage: Array(n - 1).fill(b * 0.5),
              takeprofit_percentage: Array(n).fill(t * 0.5),
            });
        const t0 = performance.now();
        let next = 0;
        await Promise.all(
          pool.map(async (w) => {
            while (next < cells.length) {
              const cell = cells[next++];
              await run(w, url30, { input: { ...input, strategy: cell }, record: false });
            }
          }),
        );
        const sweepMs = performance.now() - t0;
        for (const w of pool) w.terminate();
        return { firstRun, warm, longestSingle, sweepMs, longest, size };
      },
      { workerUrl: `/assets/${worker}`, token: login.token, url90, url30, strategy },
    );
    const best = Math.min(...figures.warm);
    console.log(`Chromium headless, ${cores} logical cores seen by the page; ${FILE}`);
    console.log(
      `90 days of 1m candles (${figures.firstRun.candles.toLocaleString('en-US')}), ${figures.firstRun.trades} trades:`,
    );
    console.log(
      `  backtest in the worker   ${best.toFixed(0).padStart(6)} ms  (best of 3; goal ≤ ${GOAL.run90dMs} ms)`,
    );
    console.log(`  first run incl. fetch+decode ${figures.firstRun.ms.toFixed(0).padStart(6)} ms`);
    console.log(
      `  over the wire            ${(wire.bytes / 1024).toFixed(0).padStart(6)} KiB (${wire.encoding}; goal ≤ ${GOAL.wireBytes / 1024 / 1024} MB)`,
    );
    console.log(
      `sweep 100 × 30 days of 1m  ${figures.sweepMs.toFixed(0).padStart(6)} ms over ${figures.size} workers (goal ≤ ${GOAL.sweep100Ms} ms)`,
    );
    // The Long Tasks API reports only tasks of 50 ms or more: none reported means none that long.
    const longTask = (ms: number) => (ms === 0 ? 'none ≥ 50 ms' : `${ms.toFixed(0)} ms`);
    console.log(
      `longest main-thread task  ${longTask(figures.longest)} during both runs (single run: ${longTask(figures.longestSingle)}; goal < ${GOAL.longTaskMs} ms)`,
    );
    failed =
      best > GOAL.run90dMs ||
      figures.sweepMs > GOAL.sweep100Ms ||
      wire.bytes > GOAL.wireBytes ||
      figures.longest >= GOAL.longTaskMs;
    if (failed) console.log('(a goal was missed)');
  } finally {
    await browser.close();
    await server.stop();
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
