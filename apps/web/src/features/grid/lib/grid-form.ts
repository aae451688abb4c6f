import {
  botMessages,
  isPlainNumberText,
  type StartGridInput,
  type StartGridParsed,
  startGridInputSchema,
} from '@gridbot/shared';

/** What the inputs hold: text as typed, switches as booleans. */
export interface GridFormValues {
  category: '' | 'Spot' | 'Future';
  selectPair: string;
  lower: string;
  upper: string;
  grids: string;
  mode: 'arithmetic' | 'geometric';
  amount: string;
  trigger: string;
  stopLoss: string;
  takeProfit: string;
  sellOnStop: boolean;
  trailingUp: boolean;
  trailingUpLimit: string;
  trailingDown: boolean;
  trailingDownLimit: string;
  direction: 'long' | 'short' | 'neutral';
  leverage: string;
}

export type GridField = keyof GridFormValues;

export const emptyGridForm: GridFormValues = {
  category: 'Spot',
  selectPair: 'BTCUSDT',
  lower: '',
  upper: '',
  grids: '10',
  mode: 'arithmetic',
  amount: '',
  trigger: '',
  stopLoss: '',
  takeProfit: '',
  sellOnStop: true,
  trailingUp: false,
  trailingUpLimit: '',
  trailingDown: false,
  trailingDownLimit: '',
  direction: 'long',
  leverage: '1',
};

/** The typed price fields and the name the strategy schema's messages give each. */
const PRICE_FIELDS = [
  'lower',
  'upper',
  'trigger',
  'stopLoss',
  'takeProfit',
  'trailingUpLimit',
  'trailingDownLimit',
] as const;

const optional = (text: string) => (text.trim() === '' ? undefined : text.trim());

/**
 * The request body (docs/trading-rules.md §2.6): numbers as typed (the schema reads them); a spot grid is long,
 * without leverage or trailing down; a trailing limit only with its trailing on.
 */
export function toGridPayload(v: GridFormValues): StartGridInput {
  const future = v.category === 'Future';
  return {
    category: v.category as 'Spot' | 'Future',
    selectPair: v.selectPair,
    amount: v.amount.trim() as unknown as number,
    strategy: {
      type: 'range',
      lower: v.lower.trim(),
      upper: v.upper.trim(),
      grids: v.grids.trim(),
      mode: v.mode,
      trigger: optional(v.trigger),
      stopLoss: optional(v.stopLoss),
      takeProfit: optional(v.takeProfit),
      sellOnStop: v.sellOnStop,
      trailingUp: v.trailingUp,
      trailingUpLimit: v.trailingUp ? optional(v.trailingUpLimit) : undefined,
      trailingDown: future && v.trailingDown,
      trailingDownLimit: future && v.trailingDown ? optional(v.trailingDownLimit) : undefined,
      direction: future ? v.direction : 'long',
      leverage: future ? v.leverage.trim() : 1,
    },
  } as StartGridInput;
}

export type GridFormCheck =
  | { ok: true; input: StartGridParsed; errors: Partial<Record<GridField, string>> }
  | { ok: false; input: null; errors: Partial<Record<GridField, string>> };

/**
 * The form's own check: first the shared number-text rule (a sign, an exponent or stray characters are refused,
 * never read as another number), then the route's schema, each message under its field.
 */
export function checkGridForm(v: GridFormValues): GridFormCheck {
  const errors: Partial<Record<GridField, string>> = {};
  if (v.category === '') errors.category = botMessages.categoryRequired;
  if (v.selectPair === '') errors.selectPair = botMessages.pairRequired;
  if (v.amount.trim() === '') errors.amount = botMessages.amountRequired;
  else if (!isPlainNumberText(v.amount)) errors.amount = botMessages.amountNumber;
  for (const field of PRICE_FIELDS) {
    const text = v[field].trim();
    if (text !== '' && !isPlainNumberText(text)) errors[field] = `${field} must be a price`;
  }
  if (v.grids.trim() !== '' && !isPlainNumberText(v.grids, { integer: true }))
    errors.grids = 'grids must be a whole number';
  if (v.category === 'Future' && !isPlainNumberText(v.leverage, { integer: true }))
    errors.leverage = 'leverage must be a whole number';

  const parsed = startGridInputSchema.safeParse(toGridPayload(v));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [head, sub] = issue.path;
      const field = (head === 'strategy' ? sub : head) as GridField | undefined;
      if (field && field in v && errors[field] === undefined) errors[field] = issue.message;
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, input: null, errors };
  return { ok: true, input: parsed.data, errors };
}
