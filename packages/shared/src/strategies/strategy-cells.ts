import { z } from 'zod';
import { isPlainNumberText, readNumberText } from '../common/number-text';
import { strategyMessages as m } from './strategy.messages';

/** Grid 1 buys at market price (docs/spec/01-core-screens.md §2): its buy cells hold this word, or nothing. */
export const MARKET_PRICE = 'marketprice';
/** docs/spec/01-core-screens.md §9: allotments total 100 % within 0.01. */
export const ALLOTMENT_TOLERANCE_PCT = 0.01;

/** A table cell as it arrives: a number, a numeric string, or blank. Anything else is a type error. */
export const cellField = z.union([z.number(), z.string()], { error: m.cellType }).nullish();

/** Reads a cell: `undefined` when blank, `null` when it is not a typed number (no sign, no exponent), else the number. */
export function readCell(value: unknown): number | null | undefined {
  return readNumberText(value);
}

/** A numeric rule for one kind of cell: its messages and the accepted range. */
export interface CellRule {
  required: (grid: number) => string;
  range: (grid: number) => string;
  ok: (n: number) => boolean;
}

export const cellRules = {
  allotted: { required: m.allottedRequired, range: m.allottedRange, ok: (n) => n > 0 && n <= 100 },
  buy: { required: m.buyRequired, range: m.buyRange, ok: (n) => n > 0 && n < 100 },
  buyUp: { required: m.buyUpRequired, range: m.buyUpRange, ok: (n) => n >= 0 && n < 100 },
  takeProfit: { required: m.takeProfitRequired, range: m.takeProfitRange, ok: (n) => n > 0 && n <= 1000 },
  takeProfitDown: {
    required: m.takeProfitDownRequired,
    range: m.takeProfitDownRange,
    ok: (n) => n >= 0 && n < 100,
  },
} satisfies Record<string, CellRule>;

type Ctx = z.RefinementCtx;

/** Checks one numeric cell; reports at `path` and answers the number, or undefined when it is bad. */
export function checkCell(ctx: Ctx, value: unknown, rule: CellRule, grid: number, path: (string | number)[]) {
  const n = readCell(value);
  if (n === undefined) {
    ctx.addIssue({ code: 'custom', message: rule.required(grid), path });
    return undefined;
  }
  if (n === null || !rule.ok(n)) {
    ctx.addIssue({ code: 'custom', message: rule.range(grid), path });
    return undefined;
  }
  return n;
}

/** Grid 1's buy cells: 'marketprice' or blank (docs/spec/01-core-screens.md §2). */
export function checkMarketCell(ctx: Ctx, value: unknown, path: (string | number)[]) {
  const blank = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  if (!blank && value !== MARKET_PRICE) ctx.addIssue({ code: 'custom', message: m.marketPrice, path });
}

/** The total shown in the spec's message: at most 4 decimals, no trailing zeros. */
export function formatTotalPct(total: number): string {
  return String(Number(total.toFixed(4)));
}

/** docs/spec/01-core-screens.md §5: allotments total 100 % within 0.01 (a hair of float slack on top). */
export function checkAllotmentTotal(ctx: Ctx, allotted: number[], path: (string | number)[]) {
  const total = allotted.reduce((sum, n) => sum + n, 0);
  if (Math.abs(total - 100) > ALLOTMENT_TOLERANCE_PCT + 1e-9) {
    ctx.addIssue({ code: 'custom', message: m.totalAllotted(formatTotalPct(total)), path });
  }
}

/** A grid count: digits only, at most 2 characters, an integer from 1 to `max` (docs/spec/01-core-screens.md §5). */
export function gridCountField(max: number, message: string) {
  return z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    const text = typeof value === 'string' ? value.trim() : '';
    const typed = text.length <= 2 && isPlainNumberText(text, { integer: true });
    const n = typeof value === 'number' ? value : typed ? Number(text) : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > max) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return n;
  });
}
