import {
  multigridStrategySchema,
  type StrategyKind,
  type StrategyParams,
  scalpingStrategySchema,
  strategyToStored,
} from '@gridbot/shared';
import { type StrategyFormValues, toMultigridPayload, toScalpingPayload } from './form-values';

/** Named so while unsaved: the backtest needs a valid table, not a name. */
const UNSAVED_NAME = 'Unsaved strategy';

/**
 * The editor's table as the stored strategy a bot would run (the very conversion saving applies), for a
 * backtest of the unsaved table; null while the table is not valid.
 */
export function storedFromForm(kind: StrategyKind, values: StrategyFormValues): StrategyParams | null {
  const named = { ...values, strategyName: values.strategyName.trim() || UNSAVED_NAME };
  const parsed =
    kind === 'multigrid'
      ? multigridStrategySchema.safeParse(toMultigridPayload(named))
      : scalpingStrategySchema.safeParse(toScalpingPayload(named));
  return parsed.success ? strategyToStored(parsed.data) : null;
}

/** Values a sweep found, in the editor's percent cells. */
export interface SweepValues {
  /** Every grid after the first buys this far below the one before (%). */
  buyPct: number;
  /** Take-profit of every grid (Multigrid) or of the whole stack (Scalping), %. */
  takeProfitPct: number;
  /** Multigrid only: trailing of the buy (rebound above the low, %) and of the take-profit (drop from the high). */
  buyUpPct?: number;
  takeProfitDownPct?: number;
}

/** The form's values with a sweep's values written into every grid. */
export function applySweepValues(
  kind: StrategyKind,
  values: StrategyFormValues,
  v: SweepValues,
): StrategyFormValues {
  const text = (n: number) => String(Number(n.toFixed(4)));
  return {
    ...values,
    tableData: values.tableData.map((row, i) => ({
      ...row,
      buyPercentage: i === 0 ? row.buyPercentage : text(v.buyPct),
      ...(kind === 'multigrid'
        ? {
            takeProfitPercentage: text(v.takeProfitPct),
            ...(v.buyUpPct !== undefined && i > 0 ? { buyPercentageUp: text(v.buyUpPct) } : {}),
            ...(v.takeProfitDownPct !== undefined
              ? { takeProfitPercentageDown: text(v.takeProfitDownPct) }
              : {}),
          }
        : {}),
    })),
    ...(kind === 'scalping' ? { takeProfitPercentage: text(v.takeProfitPct) } : {}),
  };
}
