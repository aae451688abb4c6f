// Builds the candle history that ships with the app (fixtures/history/): for every spot pair of the full
// Binance data set (default ../shared/data, or the directory given as the first argument) with hourly or
// 15-minute candles, the most recent 400 days of hourly candles (15-minute candles are merged into hours when
// they are the most recent), in the compact encoding of GET /api/candles, gzipped. sources.json beside them
// names each file's origin and licence from the data set's manifest.json. The funding-rate files of the
// futures pairs go, merged, into binance-futures-funding.json.gz (per symbol: funding times and rates). Run: npx tsx scripts/make-candle-history.ts
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  type CandleColumns,
  encodeCandles,
  type FundingSeries,
  parseCandleCsv,
  parseFundingCsv,
  SYMBOLS,
} from '@gridbot/shared';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = process.argv[2] ?? join(root, '../shared/data');
const out = join(root, 'fixtures/history');
const HOUR = 3_600_000;
const KEEP_MS = 400 * 86_400_000;

interface ManifestFile {
  file: string;
  source: { repo: string; commit: string; path: string };
  licence: string;
}
const manifest = JSON.parse(readFileSync(join(source, 'manifest.json'), 'utf8')) as { files: ManifestFile[] };

/** Hourly candles of one CSV file (15-minute rows merged into the hour they open in). */
function hourly(file: string): CandleColumns {
  const path = join(source, file);
  const candles = parseCandleCsv(path, gunzipSync(readFileSync(path)));
  const t: number[] = [];
  const o: number[] = [];
  const h: number[] = [];
  const l: number[] = [];
  const c: number[] = [];
  candles.openTimeMs.forEach((ts, i) => {
    const hour = Math.floor(ts / HOUR) * HOUR;
    const k = t.length - 1;
    if (k >= 0 && t[k] === hour) {
      h[k] = Math.max(h[k] as number, candles.high[i] as number);
      l[k] = Math.min(l[k] as number, candles.low[i] as number);
      c[k] = candles.close[i] as number;
    } else {
      t.push(hour);
      o.push(candles.open[i] as number);
      h.push(candles.high[i] as number);
      l.push(candles.low[i] as number);
      c.push(candles.close[i] as number);
    }
  });
  return {
    openTimeMs: Float64Array.from(t),
    open: Float64Array.from(o),
    high: Float64Array.from(h),
    low: Float64Array.from(l),
    close: Float64Array.from(c),
  };
}

const files = readdirSync(source).filter((n) =>
  /^binance-spot-[A-Z0-9]+-(1h|15m)-\d{8}-\d{8}\.csv\.gz$/.test(n),
);
const bySymbol = new Map<string, string>();
for (const name of files) {
  const [, symbol, , last] = /^binance-spot-([A-Z0-9]+)-(1h|15m)-\d{8}-(\d{8})/.exec(name) as RegExpExecArray;
  // Only pairs the app trades (MATIC is not one: Binance renamed it POL, which the data set does not have).
  if (!SYMBOLS.includes(symbol as string)) continue;
  const best = bySymbol.get(symbol as string);
  // The most recent file; between files ending the same day, the hourly one (it reaches back further).
  const lastOf = (n: string) => /-(\d{8})\.csv\.gz$/.exec(n)?.[1] ?? '';
  if (!best || (last as string) > lastOf(best) || (last === lastOf(best) && name.includes('-1h-'))) {
    bySymbol.set(symbol as string, name);
  }
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const sources: Record<string, unknown> = {};
for (const [symbol, file] of [...bySymbol].sort()) {
  const all = hourly(file);
  const endMs = all.openTimeMs[all.openTimeMs.length - 1] as number;
  let a = 0;
  while ((all.openTimeMs[a] as number) < endMs - KEEP_MS) a += 1;
  const cols: CandleColumns = {
    openTimeMs: all.openTimeMs.subarray(a),
    open: all.open.subarray(a),
    high: all.high.subarray(a),
    low: all.low.subarray(a),
    close: all.close.subarray(a),
  };
  const encoded = encodeCandles(cols, { symbol, category: 'spot', interval: '1h', source: 'embedded' });
  const name = `binance-spot-${symbol}-1h.json.gz`;
  writeFileSync(join(out, name), gzipSync(JSON.stringify(encoded), { level: 9 }));
  const m = manifest.files.find((f) => f.file === file);
  sources[name] = { from: file, candles: cols.openTimeMs.length, source: m?.source, licence: m?.licence };
  console.log(name, cols.openTimeMs.length, 'candles from', file);
}

const fundingName = 'binance-futures-funding.json.gz';
const funding: Record<string, FundingSeries> = {};
const fundingFiles = readdirSync(source)
  .filter((n) => /^binance-futures-[A-Z0-9]+-funding-8h-\d{8}-\d{8}\.csv\.gz$/.test(n))
  .sort();
for (const file of fundingFiles) {
  const symbol = (/^binance-futures-([A-Z0-9]+)-/.exec(file) as RegExpExecArray)[1] as string;
  if (!SYMBOLS.includes(symbol) || funding[symbol]) continue;
  const path = join(source, file);
  const series = parseFundingCsv(path, gunzipSync(readFileSync(path)));
  funding[symbol] = series;
  const m = manifest.files.find((f) => f.file === file);
  sources[`${fundingName}#${symbol}`] = {
    from: file,
    fundingTimes: series.timeMs.length,
    source: m?.source,
    licence: m?.licence,
  };
  console.log(fundingName, symbol, series.timeMs.length, 'funding times from', file);
}
writeFileSync(join(out, fundingName), gzipSync(JSON.stringify(funding), { level: 9 }));
writeFileSync(join(out, 'sources.json'), `${JSON.stringify(sources, null, 2)}\n`);
