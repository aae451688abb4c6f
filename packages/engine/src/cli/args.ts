/** Command-line flags of the backtest CLI (DESIGN §2.5). */
export interface BacktestArgs {
  strategy: string | null;
  cycle: string | null;
  candles: string;
  symbol: string;
  investment: number | null;
  category: 'spot' | 'future';
  leverage: number | null;
  json: boolean;
  feePct: number | null;
}

/** A bad flag: the CLI prints `message` on one line and exits non-zero. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE =
  'usage: backtest (--strategy FILE.json | --cycle FILE.json) --candles FILE.csv[.gz] --symbol BTCUSDT ' +
  '--investment 1000 [--category spot|future] [--leverage 3] [--fee PCT] [--json]';

const VALUE_FLAGS = new Set([
  'strategy',
  'cycle',
  'candles',
  'symbol',
  'investment',
  'category',
  'leverage',
  'fee',
]);

function positive(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new UsageError(`--${flag} must be a number > 0, got "${value}"`);
  return n;
}

/** Parses argv (without node and script); throws `UsageError` for anything wrong. */
export function parseArgs(argv: readonly string[]): BacktestArgs {
  const values = new Map<string, string>();
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
    if (values.has(name)) throw new UsageError(`--${name} given twice`);
    values.set(name, value);
  }
  const strategy = values.get('strategy') ?? null;
  const cycle = values.get('cycle') ?? null;
  if ((strategy === null) === (cycle === null))
    throw new UsageError('give exactly one of --strategy FILE.json or --cycle FILE.json');
  const candles = values.get('candles');
  if (candles === undefined) throw new UsageError('--candles FILE.csv[.gz] is required');
  const symbol = values.get('symbol');
  if (symbol === undefined) throw new UsageError('--symbol is required (e.g. BTCUSDT)');
  const inv = values.get('investment');
  if (inv === undefined && strategy !== null)
    throw new UsageError('--investment is required (USDT, e.g. 1000)');
  const cat = (values.get('category') ?? 'spot').toLowerCase();
  const category = cat === 'spot' ? 'spot' : cat === 'future' || cat === 'futures' ? 'future' : null;
  if (category === null)
    throw new UsageError(`--category must be spot or future, got "${values.get('category')}"`);
  const lev = values.get('leverage');
  if (lev !== undefined && category !== 'future') throw new UsageError('--leverage needs --category future');
  const leverage = lev === undefined ? null : positive('leverage', lev);
  if (leverage !== null && (!Number.isInteger(leverage) || leverage > 125)) {
    throw new UsageError(`--leverage must be a whole number from 1 to 125, got "${lev}"`);
  }
  const fee = values.get('fee');
  const feePct = fee === undefined ? null : Number(fee);
  if (feePct !== null && (!Number.isFinite(feePct) || feePct < 0 || fee?.trim() === '')) {
    throw new UsageError(`--fee must be a number ≥ 0 (percent), got "${fee}"`);
  }
  return {
    strategy,
    cycle,
    candles,
    symbol: symbol.toUpperCase(),
    investment: inv === undefined ? null : positive('investment', inv),
    category,
    leverage,
    json,
    feePct,
  };
}
