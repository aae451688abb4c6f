import { z } from 'zod';

/**
 * The range grid's stored strategy (docs/trading-rules.md §2.6): limit orders resting between `lower`
 * and `upper`, as the exchanges' own Spot Grid and Futures Grid bots. Numbers may arrive as numeric
 * strings (stored JSON, form fields).
 */
export const RANGE_MIN_GRIDS = 2;
export const RANGE_MAX_GRIDS = 200;

const price = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a price` })
    .refine((n) => Number.isFinite(n) && n > 0, `${name} must be a price above 0`);

const optionalPrice = (name: string) => price(name).nullish();

export const rangeStrategySchema = z
  .object({
    type: z.literal('range'),
    name: z.string().max(40).optional(),
    lower: price('lower'),
    upper: price('upper'),
    grids: z.coerce
      .number()
      .int('grids must be a whole number')
      .min(RANGE_MIN_GRIDS, `grids must be ${RANGE_MIN_GRIDS} to ${RANGE_MAX_GRIDS}`)
      .max(RANGE_MAX_GRIDS, `grids must be ${RANGE_MIN_GRIDS} to ${RANGE_MAX_GRIDS}`),
    mode: z.enum(['arithmetic', 'geometric']).default('arithmetic'),
    trigger: optionalPrice('trigger'),
    stopLoss: optionalPrice('stopLoss'),
    takeProfit: optionalPrice('takeProfit'),
    sellOnStop: z.boolean().default(true),
    trailingUp: z.boolean().default(false),
    trailingUpLimit: optionalPrice('trailingUpLimit'),
    trailingDown: z.boolean().default(false),
    trailingDownLimit: optionalPrice('trailingDownLimit'),
    direction: z.enum(['long', 'short', 'neutral']).default('long'),
    leverage: z.coerce.number().int().min(1).max(125).default(1),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (!(v.lower < v.upper)) issue('upper', 'upper must be above lower');
    if (v.stopLoss != null && !(v.stopLoss < v.lower)) issue('stopLoss', 'stopLoss must be below lower');
    if (v.takeProfit != null && !(v.takeProfit > v.upper))
      issue('takeProfit', 'takeProfit must be above upper');
    if (v.trailingUpLimit != null && !(v.trailingUpLimit > v.upper))
      issue('trailingUpLimit', 'trailingUpLimit must be above upper');
    if (v.trailingDownLimit != null && !(v.trailingDownLimit < v.lower))
      issue('trailingDownLimit', 'trailingDownLimit must be below lower');
  });

export type RangeStrategy = z.output<typeof rangeStrategySchema>;
