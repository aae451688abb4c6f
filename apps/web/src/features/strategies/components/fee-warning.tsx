import { takeProfitFeeWarning } from '@gridbot/shared';
import { type Control, useWatch } from 'react-hook-form';
import { AlertIcon } from '../../../components/ui/icons';
import type { StrategyFormValues } from '../utils/form-values';

/** Take-profits as typed: one per grid (Multigrid) or the single value (Scalping); blanks left out. */
function typedTakeProfits(
  kind: 'multigrid' | 'scalping',
  rows: StrategyFormValues['tableData'],
  single: string,
) {
  const values = kind === 'scalping' ? [single] : rows.map((row) => row.takeProfitPercentage);
  return values.map((v) => (String(v ?? '').trim() === '' ? Number.NaN : Number(v)));
}

/**
 * A take-profit below the round-trip fee books a loss on every trade; the strategy is still saved (the
 * user may mean it), but the editor says so with the fee of each market.
 */
export function StrategyFeeWarning({
  control,
  kind,
}: {
  control: Control<StrategyFormValues>;
  kind: 'multigrid' | 'scalping';
}) {
  const [rows, single] = useWatch({ control, name: ['tableData', 'takeProfitPercentage'] });
  const tps = typedTakeProfits(kind, rows ?? [], String(single ?? ''));
  const warnings = [takeProfitFeeWarning(tps, 'spot'), takeProfitFeeWarning(tps, 'future')].filter(
    (w): w is string => w !== null,
  );
  if (warnings.length === 0) return null;
  return (
    <div
      role="status"
      data-testid="fee-warning"
      className="mt-4 flex items-start gap-2 rounded-lg bg-warn/10 p-3 text-sm text-fg"
    >
      <AlertIcon className="mt-0.5 size-4 shrink-0 text-warn" />
      <div className="space-y-1">
        {warnings.map((w) => (
          <p key={w}>{w}</p>
        ))}
      </div>
    </div>
  );
}
