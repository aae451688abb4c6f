import type { ParseResult } from '../parse-strategy';
import type { CycleParams } from './cycle.state';

/** A cycle as stored (docs/spec/02-bots-wallet-account.md: buy_price, sell_price, stop_loss, no_of_cycle, amount) or as started. */
export interface CycleInput {
  params: CycleParams;
  pair: string | null;
  category: 'spot' | 'future' | null;
  leverage: number | null;
}

/** Accepted names per field: stored first, then the start payload's (priceReachAt, sellPriceAt, …). */
const FIELDS = {
  buyPrice: ['buy_price', 'priceReachAt'],
  sellPrice: ['sell_price', 'sellPriceAt'],
  stopLoss: ['stop_loss', 'stopLossAt'],
  cycles: ['no_of_cycle', 'cycleCount'],
  amount: ['amount', 'investment'],
} as const;

function pick(raw: Record<string, unknown>, names: readonly string[]): unknown {
  for (const n of names) if (raw[n] !== undefined && raw[n] !== '') return raw[n];
  return undefined;
}

function num(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Parses a cycle (docs/trading-rules.md §2.4). `amount` may be missing when the caller supplies it (then 0 here);
 * `stop_loss` is optional (null, missing or empty means none).
 */
export function parseCycle(input: unknown): ParseResult<CycleInput> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, errors: ['cycle must be a JSON object'] };
  }
  const raw = input as Record<string, unknown>;
  const errors: string[] = [];
  const required = (key: 'buyPrice' | 'sellPrice' | 'cycles'): number => {
    const v = pick(raw, FIELDS[key]);
    const n = num(v);
    if (n === undefined || n <= 0)
      errors.push(`${FIELDS[key][0]} must be a number > 0, is ${JSON.stringify(v)}`);
    return n ?? 0;
  };
  const buyPrice = required('buyPrice');
  const sellPrice = required('sellPrice');
  const cycles = required('cycles');
  const slRaw = pick(raw, FIELDS.stopLoss);
  const stopLoss = slRaw === undefined || slRaw === null ? null : (num(slRaw) ?? Number.NaN);
  if (stopLoss !== null && !(stopLoss > 0))
    errors.push(`stop_loss must be a number > 0 or null, is ${JSON.stringify(slRaw)}`);
  const amountRaw = pick(raw, FIELDS.amount);
  const amount = amountRaw === undefined ? 0 : (num(amountRaw) ?? Number.NaN);
  if (amountRaw !== undefined && !(amount > 0))
    errors.push(`amount must be a number > 0, is ${JSON.stringify(amountRaw)}`);
  const cat = typeof raw.category === 'string' ? raw.category.toLowerCase() : null;
  const category =
    cat === null ? null : cat.startsWith('fut') ? 'future' : cat === 'spot' ? 'spot' : undefined;
  if (category === undefined)
    errors.push(`category must be "Spot" or "Future", is ${JSON.stringify(raw.category)}`);
  const levRaw = raw.leverage;
  const leverage = levRaw === undefined || levRaw === null ? null : (num(levRaw) ?? Number.NaN);
  if (leverage !== null && !(leverage >= 1))
    errors.push(`leverage must be a number ≥ 1, is ${JSON.stringify(levRaw)}`);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      params: { buyPrice, sellPrice, stopLoss, cycles, amount },
      pair: typeof raw.pair === 'string' ? raw.pair : null,
      category: category ?? null,
      leverage,
    },
  };
}
