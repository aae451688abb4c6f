#!/usr/bin/env node
// Rebuilds fixtures/ from the full Binance data set (default ../shared/data, or the directory given as the
// first argument): each fixture is a time slice of one source file, cut at candle boundaries and gzipped
// again (gzip carries no timestamp here, so the same source gives the same bytes). The README beside the
// fixtures lists each file's source. Run it only to change the fixture set: tests read the committed files.

import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = process.argv[2] ?? join(root, '../shared/data');
const out = join(root, 'fixtures');
const DAY = 86_400_000;

/** [target dir, source file, first day (UTC, inclusive), last day (inclusive), or undefined for the whole file, why]. */
const SLICES = [
  // Replay set (the default MARKET_REPLAY_DIR): the first three weeks (2016 candles) of the 15-minute spot
  // files the replay feed picks from the full set, so the feed replays from the very candle it did there.
  ...['BTC', 'ETH', 'SOL', 'XRP', 'ADA', 'DOGE', 'LTC'].map((b) => [
    'replay',
    `binance-spot-${b}USDT-15m-20230401-20240409.csv.gz`,
    'first-2016',
    undefined,
    'replayed spot market',
  ]),
  [
    'replay',
    'binance-spot-BNBUSDT-15m-20240430-20250430.csv.gz',
    'first-2016',
    undefined,
    'replayed spot market',
  ],
  ...['BTC', 'ETH', 'BNB', 'SOL', 'XRP'].map((b) => [
    'replay',
    `binance-futures-${b}USDT-1m-20250504-${b === 'ETH' ? '20250615' : '20250603'}.csv.gz`,
    '2025-05-05',
    '2025-05-07',
    'replayed futures market; backtest CLI test',
  ]),
  // Backtests: golden runs, the CLI, the runtime-against-backtest check.
  [
    'backtest',
    'binance-spot-BTCUSDT-1m-20240402-20240407.csv.gz',
    undefined,
    undefined,
    'golden Multigrid; CLI',
  ],
  [
    'backtest',
    'binance-spot-BTCUSDT-1m-20210420-20210520.csv.gz',
    '2021-05-06',
    '2021-05-20',
    'golden Cycles through the 19 May 2021 crash',
  ],
  [
    'backtest',
    'binance-spot-DOGEUSDT-1m-20210420-20210520.csv.gz',
    '2021-05-13',
    '2021-05-20',
    'golden Scalping through the 19 May 2021 crash',
  ],
  [
    'backtest',
    'binance-futures-ETHUSDT-1m-20250504-20250615.csv.gz',
    '2025-05-05',
    '2025-05-11',
    'golden Multigrid futures',
  ],
  [
    'backtest',
    'binance-spot-ETHUSDT-1m-20210420-20210520.csv.gz',
    'first-1440',
    undefined,
    'live bot against the backtest (one day)',
  ],
  ...['BTC', 'ETH', 'BNB', 'SOL', 'XRP'].map((b) => [
    'backtest',
    `binance-futures-${b}USDT-funding-8h-20250306-${b === 'ETH' ? '20250615' : '20250603'}.csv.gz`,
    undefined,
    undefined,
    'funding rates',
  ]),
];
const WHOLE = [
  ['binance-markets.json', 'market rules (tick, step, min notional) checked by market-rules.test.ts'],
  ['binance-futures-leverage-brackets.json', 'maintenance-margin brackets for liquidation prices'],
];

const day = (iso) => Date.parse(`${iso}T00:00:00Z`);
const ymd = (ms) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
const manifest = JSON.parse(readFileSync(join(source, 'manifest.json'), 'utf8'));
const origin = (file) => manifest.files.find((f) => f.file === file);

const rows = [];
for (const [dir, file, from, to, why] of SLICES) {
  const lines = gunzipSync(readFileSync(join(source, file)))
    .toString('utf8')
    .trim()
    .split('\n');
  const header = lines[0];
  let body = lines.slice(1);
  if (from?.startsWith('first-')) body = body.slice(0, Number(from.slice('first-'.length)));
  else if (from !== undefined)
    body = body.filter((l) => {
      const t = Number(l.slice(0, l.indexOf(',')));
      return t >= day(from) && t < day(to) + DAY;
    });
  const first = Number(body[0].split(',')[0]);
  const last = Number(body.at(-1).split(',')[0]);
  const name = file.replace(/\d{8}-\d{8}(?=\.csv\.gz$)/, `${ymd(first)}-${ymd(last)}`);
  const bytes = gzipSync(`${[header, ...body].join('\n')}\n`, { level: 9 });
  mkdirSync(join(out, dir), { recursive: true });
  writeFileSync(join(out, dir, name), bytes);
  const src = origin(file)?.source;
  rows.push([`${dir}/${name}`, body.length, bytes.length, file, src, why]);
}
for (const [file, why] of WHOLE) {
  copyFileSync(join(source, file), join(out, file));
  rows.push([file, '—', readFileSync(join(out, file)).length, file, undefined, why]);
}

const table = rows
  .map(([name, n, size, file, src, why]) => {
    const from = src
      ? `${src.repo} @ ${src.commit.slice(0, 12)} : \`${src.path}\``
      : 'see "Market metadata" above';
    return `| \`${name}\` | ${n} | ${(size / 1024).toFixed(0)} kB | ${why} | \`${file}\` | ${from} |`;
  })
  .join('\n');
const total = rows.reduce((s, r) => s + r[2], 0);
const readme = readFileSync(join(out, 'README.md'), 'utf8');
const marker = '<!-- files: written by scripts/make-fixtures.mjs -->';
const head = readme.slice(0, readme.indexOf(marker) + marker.length);
writeFileSync(
  join(out, 'README.md'),
  `${head}\n\nTotal: ${(total / 1024 / 1024).toFixed(2)} MB.\n\n| fixture | candles | size | used for | cut from | original source (repository @ commit : path) |\n|---|---|---|---|---|---|\n${table}\n`,
);
console.log(`${rows.length} fixtures, ${(total / 1024).toFixed(0)} kB`);
