import { type GridParams, MAX_GRIDS } from './strategy-params';

/**
 * A strategy in the stored format of docs/spec/01-core-screens.md §3 plus `type`. Numbers may be numeric strings, as older
 * stored records have them.
 */
export interface StoredStrategy {
  type: 'multigrid' | 'scalping';
  strategy_name?: string;
  No_of_order: number | string;
  allotted_amount_percentage_per_order: Array<number | string>;
  buy_percentage: Array<number | string>;
  buy_percentage_up?: Array<number | string>;
  takeprofit_percentage: Array<number | string> | number | string;
  takeprofit_percentage_down?: Array<number | string>;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** Allotments are fractions summing to 1 within 0.0001 (docs/spec/01-core-screens.md §5: 100 % within 0.01). */
const ALLOC_TOLERANCE = 0.0001;

function num(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function list(
  raw: Record<string, unknown>,
  field: string,
  length: number,
  errors: string[],
  min: number,
): number[] {
  const value = raw[field];
  if (!Array.isArray(value)) {
    errors.push(`${field} must be a list of ${length} numbers`);
    return [];
  }
  if (value.length !== length) {
    errors.push(`${field} must have ${length} values, has ${value.length}`);
    return [];
  }
  const out: number[] = [];
  value.forEach((v, i) => {
    const n = num(v);
    if (n === undefined || n < min) errors.push(`${field}[${i}] must be a number ≥ ${min}, is ${String(v)}`);
    out.push(n ?? 0);
  });
  return out;
}

function gridCount(raw: Record<string, unknown>, type: GridParams['type'], errors: string[]): number {
  const n = num(raw.No_of_order);
  const max = MAX_GRIDS[type];
  if (n === undefined || !Number.isInteger(n) || n < 1 || n > max) {
    errors.push(`No_of_order must be an integer from 1 to ${max} for ${type}, is ${String(raw.No_of_order)}`);
    return 0;
  }
  return n;
}

function allocation(raw: Record<string, unknown>, grids: number, errors: string[]): number[] {
  const before = errors.length;
  const alloc = list(raw, 'allotted_amount_percentage_per_order', grids, errors, 0);
  if (errors.length > before) return alloc;
  if (alloc.some((a) => a <= 0)) errors.push('allotted_amount_percentage_per_order values must be > 0');
  const total = alloc.reduce((s, a) => s + a, 0);
  if (Math.abs(total - 1) > ALLOC_TOLERANCE) {
    errors.push(
      `allotted_amount_percentage_per_order must sum to 1 (fractions), sums to ${Number(total.toFixed(6))}`,
    );
  }
  return alloc;
}

/**
 * Turns a stored strategy (docs/spec/01-core-screens.md §3 plus `"type"`) into engine parameters, or lists every problem.
 * Lists for grids 2..N (`buy_percentage`, `buy_percentage_up`) have N − 1 values; per-grid lists N.
 */
export function parseStrategy(input: unknown): ParseResult<GridParams> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, errors: ['strategy must be a JSON object'] };
  }
  const raw = input as Record<string, unknown>;
  const type = raw.type;
  if (type !== 'multigrid' && type !== 'scalping') {
    return { ok: false, errors: [`type must be "multigrid" or "scalping", is ${JSON.stringify(type)}`] };
  }
  const errors: string[] = [];
  const name = typeof raw.strategy_name === 'string' ? raw.strategy_name : '';
  const grids = gridCount(raw, type, errors);
  if (grids === 0) return { ok: false, errors };
  const alloc = allocation(raw, grids, errors);
  const buyPct = [0, ...list(raw, 'buy_percentage', grids - 1, errors, 0)];
  if (type === 'scalping') {
    const tp = Array.isArray(raw.takeprofit_percentage) ? undefined : num(raw.takeprofit_percentage);
    if (tp === undefined || tp <= 0)
      errors.push('takeprofit_percentage must be a single number > 0 for scalping');
    if (errors.length > 0) return { ok: false, errors };
    return { ok: true, value: { type, name, grids, alloc, buyPct, tpPct: tp ?? 0 } };
  }
  const buyUpPct = [0, ...list(raw, 'buy_percentage_up', grids - 1, errors, 0)];
  const tpPct = list(raw, 'takeprofit_percentage', grids, errors, 0);
  const tpDownPct = list(raw, 'takeprofit_percentage_down', grids, errors, 0);
  tpDownPct.forEach((d, i) => {
    if (d >= 100) errors.push(`takeprofit_percentage_down[${i}] must be below 100`);
  });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: { type, name, grids, alloc, buyPct, buyUpPct, tpPct, tpDownPct } };
}

/** Like `parseStrategy` but throws an `Error` naming every problem (for tests and scripts). */
export function strategyFrom(input: unknown): GridParams {
  const parsed = parseStrategy(input);
  if (!parsed.ok) throw new Error(`Invalid strategy: ${parsed.errors.join('; ')}`);
  return parsed.value;
}
