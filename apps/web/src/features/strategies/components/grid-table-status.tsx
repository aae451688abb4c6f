import { ALLOTMENT_TOLERANCE_PCT, formatTotalPct, readCell, type StrategyKind } from '@gridbot/shared';
import { clsx } from 'clsx';
import { type Control, type FieldErrors, useWatch } from 'react-hook-form';
import { AlertIcon } from '../../../components/ui/icons';
import type { GridRowValues, StrategyFormValues } from '../utils/form-values';
import { gridColumns } from './grid-table';

/** The running total of the allotted column, so the 100 % rule is visible before saving. */
export function AllotmentTotal({ control }: { control: Control<StrategyFormValues> }) {
  const rows = useWatch({ control, name: 'tableData' }) ?? [];
  if (rows.length === 0) return null;
  const total = rows.reduce((sum, row) => {
    const n = readCell(row.allottedAmountPercentagePerOrder);
    return typeof n === 'number' ? sum + n : sum;
  }, 0);
  const ok = Math.abs(total - 100) <= ALLOTMENT_TOLERANCE_PCT + 1e-9;
  return (
    <p className="mt-3 flex items-center justify-between gap-2 text-sm" data-testid="allotment-total">
      <span className="text-muted">Total allotted</span>
      <span className={clsx('font-mono font-semibold tabular-nums', ok ? 'text-up' : 'text-warn')}>
        {formatTotalPct(total)}% / 100%
      </span>
    </p>
  );
}

type TableErrorList = FieldErrors<StrategyFormValues>['tableData'];

/** Every table message in row and column order; the allotment total first (it names the whole table). */
export function tableErrorMessages(tableErrors: TableErrorList, kind: StrategyKind): string[] {
  if (!tableErrors) return [];
  const messages: string[] = [];
  const root = (tableErrors as { root?: { message?: string } }).root?.message ?? tableErrors.message;
  if (root) messages.push(root);
  const rows = tableErrors as unknown as Record<
    string,
    Partial<Record<keyof GridRowValues, { message?: string }>>
  >;
  const indexes = Object.keys(rows)
    .filter((key) => /^\d+$/.test(key))
    .map(Number)
    .sort((a, b) => a - b);
  for (const i of indexes) {
    for (const column of gridColumns[kind]) {
      const message = rows[String(i)]?.[column.key]?.message;
      if (message) messages.push(message);
    }
  }
  return messages;
}

const SHOWN = 4;

/** The table's messages under it (cells are marked red; a cell's message is also its tooltip). */
export function TableErrors({
  errors,
  kind,
}: {
  errors: FieldErrors<StrategyFormValues>;
  kind: StrategyKind;
}) {
  const messages = tableErrorMessages(errors.tableData, kind);
  if (messages.length === 0) return null;
  const rest = messages.length - SHOWN;
  return (
    <div
      role="alert"
      className="mt-3 rounded-lg border border-down/30 bg-down/8 px-3 py-2.5 text-sm text-down"
    >
      <ul className="space-y-1">
        {messages.slice(0, SHOWN).map((message) => (
          <li key={message} className="flex gap-2">
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            <span>{message}</span>
          </li>
        ))}
      </ul>
      {rest > 0 ? <p className="mt-1 pl-6 text-xs">and {rest} more</p> : null}
    </div>
  );
}
