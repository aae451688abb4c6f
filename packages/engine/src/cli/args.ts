/** Command-line flags of the backtest CLI (docs/trading-rules.md §2.5). */
export interface BacktestArgs {
  strategy: string | null;
  cycle: string | null;
  /** Candle files, or folders whose candle files for the symbol and market are all read. */
  candles: string[];
  /** Only candles opening at or after / before these times (Unix ms); null: no bound. */
  fromMs: number | null;
  toMs: number | null;
  /** With a folder: only files of this candle interval (e.g. `1m`, the name's `-1m-` part). */
  interval: string | null;
  symbol: string;
  investment: number | null;
  category: 'spot' | 'future';
  leverage: number | null;
  json: boolean;
  feePct: number | null;
  slippageBps: number;
  stoploss: number | null;
  pause: number | null;
  restart: number | null;
  profitBookPct: number | null;
  funding: string | null;
  /** Futures: mark-price candle files (same header and open times as the candles). */
  markCandles: string[];
}

/** A bad flag: the CLI prints `message` on one line and exits non-zero. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = [
  'usage: backtest (--strategy FILE.json | --cycle FILE.json) --candles FILE.csv[.gz] [--candles MORE …]',
  '         --symbol BTCUSDT --investment 1000',
  '         [--candles FOLDER [--interval 1m] [--from YYYY-MM-DD] [--to YYYY-MM-DD]]',
  '         [--category spot|future] [--leverage 3] [--funding FUNDING.csv.gz] [--mark-candles MARK.csv.gz …]',
  '         [--stoploss PRICE] [--pause PRICE] [--restart PRICE] [--profit-book PCT]',
  '         [--fee PCT] [--slippage-bps BPS] [--json]',
].join('\n');

const VALUE_FLAGS = new Set([
  'strategy',
  'cycle',
  'candles',
  'symbol',
  'investment',
  'category',
  'leverage',
  'fee',
  'from',
  'to',
  'interval',
  'slippage-bps',
  'stoploss',
  'pause',
  'restart',
  'profit-book',
  'funding',
  'mark-candles',
]);

/** Flags that may be given more than once. */
const REPEATABLE = new Set(['candles', 'mark-candles']);

function positive(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new UsageError(`--${flag} must be a number > 0, got "${value}"`);
  return n;
}

function nonNegative(flag: string, value: string, unit: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new UsageError(`--${flag} must be a number ≥ 0 (${unit}), got "${value}"`);
  return n;
}

/** A UTC day `YYYY-MM-DD` (or an ISO time) as Unix ms. */
function date(flag: string, value: string): number {
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!Number.isFinite(ms)) throw new UsageError(`--${flag} must be a date like 2025-05-01, got "${value}"`);
  return ms;
}

/** Parses argv (without node and script); throws `UsageError` for anything wrong. */
export function parseArgs(argv: readonly string[]): BacktestArgs {
  const values = new Map<string, string[]>();
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === 'json') {
      json = true;
      continue;
    }
    if (!VALUE_FLAGS.has(name)) throw new UsageError(`unknown flag --${name}`);
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) {
      throw new UsageError(`--${name} needs a value`);
    }
    const list = values.get(name) ?? [];
    if (list.length > 0 && !REPEATABLE.has(name)) throw new UsageError(`--${name} given twice`);
    list.push(value);
    values.set(name, list);
  }
  const one = (name: string) => values.get(name)?.[0];
  const strategy = one('strategy') ?? null;
  const cycle = one('cycle') ?? null;
  if ((strategy === null) === (cycle === null))
    throw new UsageError('give exactly one of --strategy FILE.json or --cycle FILE.json');
  const candles = values.get('candles') ?? [];
  if (candles.length === 0) throw new UsageError('--candles FILE.csv[.gz] is required');
  const symbol = one('symbol');
  if (symbol === undefined) throw new UsageError('--symbol is required (e.g. BTCUSDT)');
  const inv = one('investment');
  if (inv === undefined && strategy !== null)
    throw new UsageError('--investment is required (USDT, e.g. 1000)');
  const cat = (one('category') ?? 'spot').toLowerCase();
  const category = cat === 'spot' ? 'spot' : cat === 'future' || cat === 'futures' ? 'future' : null;
  if (category === null) throw new UsageError(`--category must be spot or future, got "${one('category')}"`);
  const lev = one('leverage');
  if (lev !== undefined && category !== 'future') throw new UsageError('--leverage needs --category future');
  const leverage = lev === undefined ? null : positive('leverage', lev);
  if (leverage !== null && (!Number.isInteger(leverage) || leverage > 125)) {
    throw new UsageError(`--leverage must be a whole number from 1 to 125, got "${lev}"`);
  }
  const funding = one('funding') ?? null;
  if (funding !== null && category !== 'future') throw new UsageError('--funding needs --category future');
  const markCandles = values.get('mark-candles') ?? [];
  if (markCandles.length > 0 && category !== 'future')
    throw new UsageError('--mark-candles needs --category future');
  const fee = one('fee');
  const price = (name: string) => {
    const v = one(name);
    return v === undefined ? null : positive(name, v);
  };
  const from = one('from');
  const to = one('to');
  const fromMs = from === undefined ? null : date('from', from);
  const toMs = to === undefined ? null : date('to', to);
  if (fromMs !== null && toMs !== null && toMs <= fromMs) throw new UsageError('--to must be after --from');
  const slippage = one('slippage-bps');
  const interval = one('interval') ?? null;
  if (interval !== null && !/^\d+[mhdw]$/.test(interval))
    throw new UsageError(`--interval must look like 1m, 5m, 1h or 1d, got "${interval}"`);
  return {
    strategy,
    cycle,
    candles,
    fromMs,
    toMs,
    interval,
    symbol: symbol.toUpperCase(),
    investment: inv === undefined ? null : positive('investment', inv),
    category,
    leverage,
    json,
    feePct: fee === undefined ? null : nonNegative('fee', fee, 'percent'),
    slippageBps: slippage === undefined ? 0 : nonNegative('slippage-bps', slippage, 'basis points'),
    stoploss: price('stoploss'),
    pause: price('pause'),
    restart: price('restart'),
    profitBookPct: price('profit-book'),
    funding,
    markCandles,
  };
}
