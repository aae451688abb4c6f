import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Button } from './button';
import { useNarrowBox } from './use-narrow-box';

export interface DataColumn<T> {
  key: string;
  header: ReactNode;
  /** The header as text for the phone cards; needed when `header` is not plain text (e.g. visually hidden). */
  label?: string;
  cell: (row: T, index: number) => ReactNode;
  align?: 'left' | 'right' | 'center';
  className?: string;
  /** A class for the row's cell from its value (a profit green, a loss red); the cards use it too. */
  cellClassName?: (row: T) => string | undefined;
  /** Whether the header is a button that sorts by the column (the table's `onSort`). */
  sortable?: boolean;
}

/** How the rows are ordered: a column's key and the direction. The caller sorts; the table shows it. */
export interface TableSort {
  key: string;
  dir: 'asc' | 'desc';
}

interface DataTableProps<T> {
  /** Accessible name of the table (visually hidden). */
  caption: string;
  columns: readonly DataColumn<T>[];
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  loading: boolean;
  /** A message to show instead of rows; with `onRetry` a Retry button follows it. */
  error?: string | null;
  onRetry?: () => void;
  loadingText?: string;
  emptyText?: string;
  className?: string;
  /** Keep the table below the mobile breakpoint too: for a narrow one that fits a phone (two short columns). */
  tableOnPhone?: boolean;
  /** Narrower than this (px), the rows show as cards; the table's least width when it has many columns. */
  cardsBelowPx?: number;
  /** A phone card of the caller's own (a compact line per row) instead of the labelled fields. */
  renderCard?: (row: T, index: number) => ReactNode;
  /** The first column stays in view while the others scroll sideways under it (a wide table on a tablet). */
  stickyFirstColumn?: boolean;
  /** Headers of two or three words break over two lines rather than widen their columns (many columns). */
  wrapHeaders?: boolean;
  /** The current order, shown on the sortable headers (`aria-sort` and an arrow). */
  sort?: TableSort | null;
  /** Called with a sortable column's key when its header is pressed. */
  onSort?: (key: string) => void;
}

// The phone cards show the 'No' column as a small '#N' at the top of the card instead of as a field.
const ROW_NUMBER_KEY = 'no';

/** The 'No' column; `numberOf` turns a row's index on the page into its number across pages. */
export function rowNumberColumn<T>(numberOf: (index: number) => number): DataColumn<T> {
  return {
    key: ROW_NUMBER_KEY,
    header: 'No',
    cell: (_row, index) => numberOf(index),
    className: 'text-muted tabular-nums',
  };
}

const cell = 'px-3 py-3 sm:px-4';
const aligns = { left: 'text-left', right: 'text-right', center: 'text-center' };

/** Narrower than this (px), the records show as cards: beside the sidebar on a tablet as on a phone. */
const CARDS_BELOW_PX = 600;

// Where the table is wider than its box, the first column stays in view; the inset line marks the edge the
// other columns pass under.
const STICKY = 'sticky left-0 z-10 shadow-[inset_-1px_0_0_var(--color-line)]';

/**
 * A plain records table with one line of text while loading, on error and when empty. Below the mobile
 * breakpoint, or where its box is narrower than 600 px (a card beside the sidebar on a tablet), each row is a
 * card of labelled fields, since four to ten columns would only scroll sideways there.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { ref, narrow } = useNarrowBox(props.cardsBelowPx ?? CARDS_BELOW_PX);
  return (
    <div ref={ref}>{narrow && !props.tableOnPhone ? <DataCards {...props} /> : <DataGrid {...props} />}</div>
  );
}

/** What shows instead of rows: the loading text (a status), the error with Retry (an alert) or the empty text. */
function Notice<T>({
  loading,
  error,
  onRetry,
  rows,
  loadingText = 'Loading...',
  emptyText = 'No Records Found.',
}: DataTableProps<T>): ReactNode {
  if (loading) return <div role="status">{loadingText}</div>;
  if (error)
    return (
      <div role="alert">
        <span className="block">{error}</span>
        {onRetry ? (
          <Button variant="outline" size="sm" className="mt-3" onClick={onRetry}>
            Retry
          </Button>
        ) : null}
      </div>
    );
  if (!rows || rows.length === 0) return <div>{emptyText}</div>;
  return null;
}

function hasRows<T>({ loading, error, rows }: DataTableProps<T>): boolean {
  return !loading && !error && rows !== undefined && rows.length > 0;
}

const ariaSort = { asc: 'ascending', desc: 'descending' } as const;
const arrows = { asc: '▲', desc: '▼' } as const;

/** A column's header: a button that sorts by it when it is sortable. */
function HeaderCell<T>({
  column,
  props,
  first,
}: {
  column: DataColumn<T>;
  props: DataTableProps<T>;
  first: boolean;
}) {
  const { sort, onSort, stickyFirstColumn, wrapHeaders } = props;
  const sorted = sort?.key === column.key ? sort.dir : undefined;
  return (
    <th
      scope="col"
      aria-sort={sorted ? ariaSort[sorted] : undefined}
      className={clsx(
        cell,
        aligns[column.align ?? 'left'],
        wrapHeaders && 'whitespace-normal align-bottom',
        first && stickyFirstColumn && `${STICKY} bg-surface`,
      )}
    >
      {column.sortable && onSort ? (
        <button
          type="button"
          onClick={() => onSort(column.key)}
          className="inline-flex items-center gap-1 text-left uppercase hover:text-fg"
        >
          {column.header}
          <span aria-hidden="true">{sorted ? arrows[sorted] : '↕'}</span>
        </button>
      ) : (
        column.header
      )}
    </th>
  );
}

function DataGrid<T>(props: DataTableProps<T>) {
  const { caption, columns, rows, rowKey, className, stickyFirstColumn } = props;
  return (
    // Keyboard users scroll a table wider than its card too: the scroll box takes focus (axe's
    // scrollable-region-focusable), named after the table it holds.
    <section
      aria-label={caption}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must be reachable to scroll by keyboard
      tabIndex={0}
      className={clsx(
        'relative overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
        className,
      )}
    >
      <table className="w-full text-[0.8125rem] whitespace-nowrap sm:text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-line text-xs font-semibold tracking-wide text-muted uppercase">
            {columns.map((column, i) => (
              <HeaderCell key={column.key} column={column} props={props} first={i === 0} />
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {rows && hasRows(props) ? (
            rows.map((row, index) => (
              <tr key={rowKey(row)} className="group transition-colors hover:bg-surface-2/50">
                {columns.map((column, i) => (
                  <td
                    key={column.key}
                    className={clsx(
                      cell,
                      aligns[column.align ?? 'left'],
                      column.cellClassName?.(row) || 'text-fg',
                      column.className,
                      i === 0 && stickyFirstColumn && `${STICKY} bg-surface group-hover:bg-surface-2`,
                    )}
                  >
                    {column.cell(row, index)}
                  </td>
                ))}
              </tr>
            ))
          ) : (
            <tr>
              <td colSpan={columns.length} className="px-4 py-10 text-center text-sm text-muted">
                <Notice {...props} />
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

function DataCards<T>(props: DataTableProps<T>) {
  const { caption, columns, rows, rowKey, className, renderCard } = props;
  if (!rows || !hasRows(props))
    return (
      <div className={clsx('px-4 py-10 text-center text-sm text-muted', className)}>
        <Notice {...props} />
      </div>
    );
  if (renderCard)
    return (
      <ul aria-label={caption} className={clsx('divide-y divide-line/60', className)}>
        {rows.map((row, index) => (
          <li key={rowKey(row)}>{renderCard(row, index)}</li>
        ))}
      </ul>
    );
  const number = columns.find((c) => c.key === ROW_NUMBER_KEY);
  const fields = columns.filter((c) => c !== number);
  return (
    <ul aria-label={caption} className={clsx('grid grid-cols-1 gap-3', className)}>
      {rows.map((row, index) => (
        <li key={rowKey(row)} className="rounded-lg border border-line p-3">
          {number ? <p className="mb-1 text-xs text-muted tabular-nums">#{number.cell(row, index)}</p> : null}
          <DataCardFields fields={fields} row={row} index={index} />
        </li>
      ))}
    </ul>
  );
}

/** One "header: value" line per column; a column with nothing to show for the row (no actions) is left out. */
function DataCardFields<T>({
  fields,
  row,
  index,
}: {
  fields: readonly DataColumn<T>[];
  row: T;
  index: number;
}) {
  return (
    <dl className="grid grid-cols-1 gap-2 text-sm">
      {fields.map((column) => {
        const value = column.cell(row, index);
        if (value === null || value === undefined || value === false || value === '') return null;
        return (
          <div key={column.key} className="flex items-baseline justify-between gap-4">
            <dt className="shrink-0 text-xs text-muted">{column.label ?? column.header}</dt>
            <dd
              className={clsx(
                'min-w-0 text-right wrap-anywhere',
                column.cellClassName?.(row) || 'text-fg',
                column.className,
              )}
            >
              {value}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
