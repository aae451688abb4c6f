import { AUTO_FILL, MARKET_PRICE, type StrategyKind } from '@gridbot/shared';
import type { FieldArrayWithId, FieldErrors, UseFormRegister } from 'react-hook-form';
import { CellInput, type DataColumn, DataTable } from '../../../components/ui/data-table';
import type { GridRowValues, StrategyFormValues } from '../utils/form-values';

type CellKey = keyof GridRowValues;

interface Column {
  key: CellKey;
  /** Accessible name after 'Grid n ' (the header shows it in two rows). */
  label: string;
  /** The header: the label, or its second row under `group`. */
  header: string;
  group?: string;
  /** What the condition means, as the header's tooltip. */
  title?: string;
  placeholder: string;
  /** Grid 1 shows a disabled 'marketprice' in this column (docs/spec/01-core-screens.md §2). */
  market?: boolean;
}

const ALLOTTED: Column = {
  key: 'allottedAmountPercentagePerOrder',
  label: 'Allotted Amount (%)',
  header: 'Allotted Amount (%)',
  placeholder: '',
};

/** A column under a two-row header: named '<group> <header>' ("Buy (%) first condition"). */
function grouped(group: string, header: string, rest: Omit<Column, 'label' | 'header' | 'group'>): Column {
  return { ...rest, group, header, label: `${group} ${header}` };
}

export const gridColumns: Record<StrategyKind, Column[]> = {
  multigrid: [
    ALLOTTED,
    grouped('Buy (%)', 'first condition', {
      key: 'buyPercentage',
      title: "Drop from the previous grid's buy that arms the buy",
      placeholder: String(AUTO_FILL.buyPct),
      market: true,
    }),
    grouped('Buy (%)', 'second condition', {
      key: 'buyPercentageUp',
      title: 'Rebound from the low that triggers the buy',
      placeholder: String(AUTO_FILL.upDownPct),
      market: true,
    }),
    grouped('Take Profit (%)', 'first condition', {
      key: 'takeProfitPercentage',
      title: "Rise from this grid's buy that arms the take-profit",
      placeholder: String(AUTO_FILL.takeProfitPct),
    }),
    grouped('Take Profit (%)', 'second condition', {
      key: 'takeProfitPercentageDown',
      title: 'Pull-back from the high that sells',
      placeholder: String(AUTO_FILL.upDownPct),
    }),
  ],
  scalping: [
    ALLOTTED,
    {
      key: 'buyPercentage',
      label: 'Buy Condition (%)',
      header: 'Buy Condition (%)',
      placeholder: String(AUTO_FILL.buyPct),
      market: true,
    },
  ],
};

type GridRow = FieldArrayWithId<StrategyFormValues, 'tableData', 'id'>;

interface GridTableProps {
  kind: StrategyKind;
  fields: GridRow[];
  register: UseFormRegister<StrategyFormValues>;
  errors: FieldErrors<StrategyFormValues>;
  /** Placeholder of the allotted cells (100 / grids). */
  allottedPlaceholder: string;
  disabled?: boolean;
}

/** The grid's number, a row header that stays in view while the conditions scroll sideways. */
const numberColumn: DataColumn<GridRow> = {
  key: 'grid',
  header: 'No.',
  rowHeader: true,
  cell: (_row, i) => (
    <span className="flex h-9 min-w-8 items-center rounded bg-surface-2/80 px-1.5">{i + 1}</span>
  ),
  className: 'w-12 font-mono text-xs font-semibold',
  cellClassName: () => 'text-muted',
};

/**
 * The per-grid table. Sticky header and first column keep it usable with 50 grids and on a 390 px phone
 * (it scrolls both ways inside its own box). Every cell is labelled 'Grid n <column>'.
 */
export function GridTable({ kind, fields, register, errors, allottedPlaceholder, disabled }: GridTableProps) {
  const columns: DataColumn<GridRow>[] = [
    numberColumn,
    ...gridColumns[kind].map(
      (column): DataColumn<GridRow> => ({
        key: column.key,
        header: column.header,
        group: column.group,
        headerTitle: column.title,
        // Wide enough for grid 1's 'marketprice' in full (the wrapped headers no longer widen the column).
        className: column.market ? 'min-w-[5.5rem]' : undefined,
        cell: (_row, i) => {
          const label = `Grid ${i + 1} ${column.label}`;
          if (i === 0 && column.market) {
            return (
              <CellInput
                label={label}
                value={MARKET_PRICE}
                disabled
                readOnly
                className="px-1.5 font-sans text-[0.7rem]"
              />
            );
          }
          return (
            <CellInput
              label={label}
              error={errors.tableData?.[i]?.[column.key]?.message}
              inputMode="decimal"
              autoComplete="off"
              disabled={disabled}
              placeholder={
                column.key === 'allottedAmountPercentagePerOrder' ? allottedPlaceholder : column.placeholder
              }
              {...register(`tableData.${i}.${column.key}`)}
            />
          );
        },
      }),
    ),
  ];
  return (
    <DataTable
      caption="Grids"
      columns={columns}
      rows={fields}
      rowKey={(field) => field.id}
      loading={false}
      editable
      stickyHeader
      stickyFirstColumn
      // The inputs set the columns' widths: the headers wrap rather than widen them past the card.
      wrapHeaders
      className="max-h-[34rem] rounded-lg border border-line"
    />
  );
}
