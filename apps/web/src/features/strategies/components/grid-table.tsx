import { AUTO_FILL, MARKET_PRICE, type StrategyKind } from '@gridbot/shared';
import { clsx } from 'clsx';
import type { FieldArrayWithId, FieldErrors, UseFormRegister } from 'react-hook-form';
import type { GridRowValues, StrategyFormValues } from '../utils/form-values';

type CellKey = keyof GridRowValues;

interface Column {
  key: CellKey;
  /** Accessible name after 'Grid n ' (the header shows it in two rows). */
  label: string;
  placeholder: string;
  /** Grid 1 shows a disabled 'marketprice' in this column (docs/spec/01-core-screens.md §2). */
  market?: boolean;
}

const ALLOTTED: Column = {
  key: 'allottedAmountPercentagePerOrder',
  label: 'Allotted Amount (%)',
  placeholder: '',
};

export const gridColumns: Record<StrategyKind, Column[]> = {
  multigrid: [
    ALLOTTED,
    {
      key: 'buyPercentage',
      label: 'Buy (%) first condition',
      placeholder: String(AUTO_FILL.buyPct),
      market: true,
    },
    {
      key: 'buyPercentageUp',
      label: 'Buy (%) second condition',
      placeholder: String(AUTO_FILL.upDownPct),
      market: true,
    },
    {
      key: 'takeProfitPercentage',
      label: 'Take Profit (%) first condition',
      placeholder: String(AUTO_FILL.takeProfitPct),
    },
    {
      key: 'takeProfitPercentageDown',
      label: 'Take Profit (%) second condition',
      placeholder: String(AUTO_FILL.upDownPct),
    },
  ],
  scalping: [
    ALLOTTED,
    { key: 'buyPercentage', label: 'Buy Condition (%)', placeholder: String(AUTO_FILL.buyPct), market: true },
  ],
};

const th = 'sticky top-0 z-10 bg-surface-2 px-2 py-2 text-left text-xs font-semibold text-muted';
const cellInput = clsx(
  'block h-9 w-full min-w-[4.75rem] rounded-md border bg-surface px-2 font-mono text-sm tabular-nums text-fg',
  'placeholder:text-muted/60 focus:outline-none focus:ring-3 focus:ring-ring/40',
  'disabled:cursor-not-allowed disabled:bg-surface-2 disabled:text-muted',
);

function Header({ kind }: { kind: StrategyKind }) {
  if (kind === 'scalping') {
    return (
      <tr>
        <th scope="col" className={clsx(th, 'left-0 z-20 w-12')}>
          No.
        </th>
        <th scope="col" className={th}>
          Allotted Amount (%)
        </th>
        <th scope="col" className={th}>
          Buy Condition (%)
        </th>
      </tr>
    );
  }
  const sub = clsx(th, 'top-8 pt-0 text-[0.6875rem] font-medium');
  return (
    <>
      <tr>
        <th scope="col" rowSpan={2} className={clsx(th, 'left-0 z-20 w-12 align-bottom')}>
          No.
        </th>
        <th scope="col" rowSpan={2} className={clsx(th, 'align-bottom')}>
          Allotted Amount (%)
        </th>
        <th scope="colgroup" colSpan={2} className={clsx(th, 'h-8 text-center')}>
          Buy (%)
        </th>
        <th scope="colgroup" colSpan={2} className={clsx(th, 'h-8 text-center')}>
          Take Profit (%)
        </th>
      </tr>
      <tr>
        <th scope="col" className={sub} title="Drop from the previous grid's buy that arms the buy">
          first condition
        </th>
        <th scope="col" className={sub} title="Rebound from the low that triggers the buy">
          second condition
        </th>
        <th scope="col" className={sub} title="Rise from this grid's buy that arms the take-profit">
          first condition
        </th>
        <th scope="col" className={sub} title="Pull-back from the high that sells">
          second condition
        </th>
      </tr>
    </>
  );
}

interface GridTableProps {
  kind: StrategyKind;
  fields: FieldArrayWithId<StrategyFormValues, 'tableData', 'id'>[];
  register: UseFormRegister<StrategyFormValues>;
  errors: FieldErrors<StrategyFormValues>;
  /** Placeholder of the allotted cells (100 / grids). */
  allottedPlaceholder: string;
  disabled?: boolean;
}

/**
 * The per-grid table. Sticky header and first column keep it usable with 50 grids and on a 390 px phone
 * (it scrolls both ways inside its own box). Every cell is labelled 'Grid n <column>'.
 */
export function GridTable({ kind, fields, register, errors, allottedPlaceholder, disabled }: GridTableProps) {
  const columns = gridColumns[kind];
  return (
    <div className="max-h-[34rem] overflow-auto rounded-lg border border-line" data-testid="grid-table">
      <table className="w-full border-separate border-spacing-0 text-sm">
        <thead>
          <Header kind={kind} />
        </thead>
        <tbody>
          {fields.map((field, i) => {
            const grid = i + 1;
            const rowErrors = errors.tableData?.[i];
            return (
              <tr key={field.id}>
                <th
                  scope="row"
                  className="sticky left-0 z-[5] border-t border-line bg-surface px-2 text-left font-mono text-xs font-semibold text-muted"
                >
                  <span className="flex h-9 min-w-8 items-center rounded bg-surface-2/80 px-1.5">{grid}</span>
                </th>
                {columns.map((column) => {
                  const label = `Grid ${grid} ${column.label}`;
                  if (i === 0 && column.market) {
                    return (
                      <td key={column.key} className="border-t border-line px-1.5 py-1.5">
                        <input
                          aria-label={label}
                          value={MARKET_PRICE}
                          disabled
                          readOnly
                          className={clsx(cellInput, 'border-line px-1.5 font-sans text-[0.7rem]')}
                        />
                      </td>
                    );
                  }
                  const message = rowErrors?.[column.key]?.message;
                  return (
                    <td key={column.key} className="border-t border-line px-1.5 py-1.5">
                      <input
                        aria-label={label}
                        inputMode="decimal"
                        autoComplete="off"
                        disabled={disabled}
                        placeholder={
                          column.key === 'allottedAmountPercentagePerOrder'
                            ? allottedPlaceholder
                            : column.placeholder
                        }
                        aria-invalid={message ? true : undefined}
                        title={message}
                        className={clsx(
                          cellInput,
                          message ? 'border-down focus:ring-down/25' : 'border-line focus:border-primary',
                        )}
                        {...register(`tableData.${i}.${column.key}`)}
                      />
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
