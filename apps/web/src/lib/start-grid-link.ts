/**
 * The Start Grid screen opened with a grid's parameters chosen elsewhere (Copy BOTs copies a top range grid).
 * Features do not import each other, so the link is written and read here once; the form shows the values for
 * the user to check or change before starting (docs/trading-rules.md §2.6).
 */
export const START_GRID_SCREEN = '/grid';

/** What the link may carry: the pair, category and the grid's parameters (the amount is always the user's). */
export interface StartGridPrefill {
  pair?: string;
  category?: 'Spot' | 'Future';
  strategy?: Record<string, unknown>;
}

/** The parameters a link carries, by their names in the stored strategy; the rest of a strategy is left out. */
const PRICE_KEYS = [
  'lower',
  'upper',
  'stopLoss',
  'takeProfit',
  'trailingUpLimit',
  'trailingDownLimit',
] as const;
const FLAG_KEYS = ['sellOnStop', 'trailingUp', 'trailingDown'] as const;

/** Read back: every value as text, as a form field holds it; only what the link carries is present. */
export interface StartGridLinkValues {
  selectPair?: string;
  category?: 'Spot' | 'Future';
  lower?: string;
  upper?: string;
  grids?: string;
  mode?: 'arithmetic' | 'geometric';
  stopLoss?: string;
  takeProfit?: string;
  trailingUpLimit?: string;
  trailingDownLimit?: string;
  sellOnStop?: boolean;
  trailingUp?: boolean;
  trailingDown?: boolean;
  direction?: 'long' | 'short' | 'neutral';
  leverage?: string;
}

const numberText = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

/** `/grid?…` with what is known; empty values are left out. */
export function startGridPath(prefill: StartGridPrefill): string {
  const params = new URLSearchParams();
  if (prefill.pair) params.set('pair', prefill.pair);
  if (prefill.category) params.set('category', prefill.category);
  const s = prefill.strategy ?? {};
  for (const key of [...PRICE_KEYS, 'grids', 'leverage'] as const) {
    const text = numberText(s[key]);
    if (text !== undefined) params.set(key, text);
  }
  if (s.mode === 'arithmetic' || s.mode === 'geometric') params.set('mode', s.mode);
  if (s.direction === 'long' || s.direction === 'short' || s.direction === 'neutral')
    params.set('direction', s.direction);
  for (const key of FLAG_KEYS) if (typeof s[key] === 'boolean') params.set(key, String(s[key]));
  const query = params.toString();
  return query ? `${START_GRID_SCREEN}?${query}` : START_GRID_SCREEN;
}

/** The values a Start Grid link carries (a value that is not one the form offers is dropped). */
export function readStartGridLink(params: URLSearchParams): StartGridLinkValues {
  const out: StartGridLinkValues = {};
  const pair = params.get('pair');
  if (pair && /^[A-Z0-9]{2,20}$/.test(pair)) out.selectPair = pair;
  const category = params.get('category');
  if (category === 'Spot' || category === 'Future') out.category = category;
  for (const key of [...PRICE_KEYS, 'grids', 'leverage'] as const) {
    const text = params.get(key);
    if (text !== null && Number.isFinite(Number(text)) && text.trim() !== '') out[key] = text;
  }
  const mode = params.get('mode');
  if (mode === 'arithmetic' || mode === 'geometric') out.mode = mode;
  const direction = params.get('direction');
  if (direction === 'long' || direction === 'short' || direction === 'neutral') out.direction = direction;
  for (const key of FLAG_KEYS) {
    const flag = params.get(key);
    if (flag === 'true' || flag === 'false') out[key] = flag === 'true';
  }
  return out;
}
