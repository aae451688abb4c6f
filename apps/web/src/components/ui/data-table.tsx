import { clsx } from 'clsx';
import type { ComponentProps, ReactNode } from 'react';
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
  /** The row's cells of this column are its headers (`<th scope="row">`): the event a line of checkboxes is for. */
  rowHeader?: boolean;
  /** A header over this column and its neighbours of the same group ("Buy (%)" over "first condition"). */
  group?: string;
  /** A tooltip on the header: what the column means, where the header is only a word or two. */
  headerTitle?: string;
  /** A narrow column of checkboxes or icons: little padding beside its cells, so the text columns get the room. */
  tight?: boolean;
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
  /** Less padding beside each cell (many columns): the columns' own text gets the room. */
  dense?: boolean;
  /** The current order, shown on the sortable headers (`aria-sort` and an arrow). */
  sort?: TableSort | null;
  /** Called with a sortable column's key when its header is pressed. */
  onSort?: (key: string) => void;
  /** The cells hold inputs (`CellInput`): tighter cells, no row highlight, and always a table, even on a phone. */
  editable?: boolean;
  /**
   * The header rows stay in view while a tall table scrolls inside its own box; the caller bounds the box's
   * height in `className` (e.g. `max-h-[34rem]`).
   */
  stickyHeader?: boolean;
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
const denseCell = 'px-2 py-3';
const editableCell = 'px-1.5 py-1.5';
const tightCell = 'px-1 py-3';
const headPadding = (props: { editable?: boolean; dense?: boolean }, column?: { tight?: boolean }) =>
  column?.tight ? tightCell : props.editable ? 'px-2 py-2' : props.dense ? denseCell : cell;
const bodyPadding = (props: { editable?: boolean; dense?: boolean }, column: { tight?: boolean }) =>
  column.tight ? tightCell : props.editable ? editableCell : props.dense ? denseCell : cell;

/**
 * Where a header cell stays: a sticky header has a background of its own (the rows pass under it), and its
 * corner stays put both ways. A two-row header's first row is h-8 high, so the second sticks just below it.
 */
function headerStickiness(
  { stickyHeader, stickyFirstColumn }: { stickyHeader?: boolean; stickyFirstColumn?: boolean },
  first: boolean,
  row: 'first' | 'second',
): string | undefined {
  const corner = first && stickyFirstColumn;
  if (!stickyHeader) return corner ? `${STICKY} bg-surface` : undefined;
  const top = row === 'second' ? 'top-8 pt-0' : 'top-0';
  return clsx('sticky bg-surface-2', top, corner ? `left-0 z-30 ${STICKY_EDGE}` : 'z-20');
}
const aligns = { left: 'text-left', right: 'text-right', center: 'text-center' };

/** Narrower than this (px), the records show as cards: beside the sidebar on a tablet as on a phone. */
const CARDS_BELOW_PX = 600;

// Where the table is wider than its box, the first column stays in view; the inset line marks the edge the
// other columns pass under.
const STICKY_EDGE = 'shadow-[inset_-1px_0_0_var(--color-line)]';
const STICKY = `sticky left-0 z-10 ${STICKY_EDGE}`;

/**
 * A plain records table with one line of text while loading, on error and when empty. Below the mobile
 * breakpoint, or where its box is narrower than 600 px (a card beside the sidebar on a tablet), each row is a
 * card of labelled fields, since four to ten columns would only scroll sideways there.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { ref, narrow } = useNarrowBox(props.cardsBelowPx ?? CARDS_BELOW_PX);
  const cards = narrow && !props.tableOnPhone && !props.editable;
  return <div ref={ref}>{cards ? <DataCards {...props} /> : <DataGrid {...props} />}</div>;
}

const cellInputClasses = clsx(
  'block h-9 w-full min-w-[4.75rem] rounded-md border bg-surface px-2 font-mono text-sm tabular-nums text-fg',
  'placeholder:text-muted/60 focus:outline-none focus:ring-3 focus:ring-ring/40',
  'disabled:cursor-not-allowed disabled:bg-surface-2 disabled:text-muted',
);

type CellInputProps = Omit<ComponentProps<'input'>, 'aria-label'> & {
  /** The input's accessible name: a cell has no visible label of its own ("Grid 2 Buy (%) first condition"). */
  label: string;
  /** The cell's message: the input is marked invalid and red, and the message is its tooltip. */
  error?: string;
};

/** An input in a cell of an `editable` DataTable, named by `label`, red with its `error`. */
export function CellInput({ label, error, className, ...props }: CellInputProps) {
  return (
    <input
      aria-label={label}
      aria-invalid={error ? true : undefined}
      title={error}
      {...props}
      className={clsx(
        cellInputClasses,
        error ? 'border-down focus:ring-down/25' : 'border-line focus:border-primary',
        className,
      )}
    />
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
  rowSpan,
  top,
}: {
  column: DataColumn<T>;
  props: DataTableProps<T>;
  first: boolean;
  /** 2 for an ungrouped column's header beside a grouped one's two rows. */
  rowSpan?: number;
  /** The second of two header rows (its sticky offset is the first row's height). */
  top?: 'second';
}) {
  const { sort, onSort, wrapHeaders } = props;
  const sorted = sort?.key === column.key ? sort.dir : undefined;
  return (
    <th
      scope="col"
      rowSpan={rowSpan}
      title={column.headerTitle}
      aria-sort={sorted ? ariaSort[sorted] : undefined}
      className={clsx(
        headPadding(props, column),
        aligns[column.align ?? 'left'],
        (wrapHeaders || rowSpan) && 'align-bottom',
        wrapHeaders && 'whitespace-normal',
        headerStickiness(props, first, top ?? 'first'),
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

/** One header row; or, where columns are grouped, a row of group headers over a row of their columns. */
function HeaderRows<T>({ props }: { props: DataTableProps<T> }) {
  const { columns, stickyHeader } = props;
  // A sticky header is marked by its background: a border would scroll away from it.
  const last = clsx('tracking-wide text-muted uppercase', !stickyHeader && 'border-b border-line');
  if (!columns.some((column) => column.group)) {
    return (
      <tr className={clsx(last, 'text-xs font-semibold')}>
        {columns.map((column, i) => (
          <HeaderCell key={column.key} column={column} props={props} first={i === 0} />
        ))}
      </tr>
    );
  }
  const top: ReactNode[] = [];
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i] as DataColumn<T>;
    if (!column.group) {
      top.push(<HeaderCell key={column.key} column={column} props={props} first={i === 0} rowSpan={2} />);
      continue;
    }
    let span = 1;
    while (columns[i + span]?.group === column.group) span++;
    top.push(
      <th
        key={`group-${column.key}`}
        scope="colgroup"
        colSpan={span}
        className={clsx(headPadding(props), 'h-8 text-center', headerStickiness(props, false, 'first'))}
      >
        {column.group}
      </th>,
    );
    i += span - 1;
  }
  return (
    <>
      <tr className="text-xs font-semibold tracking-wide text-muted uppercase">{top}</tr>
      <tr className={clsx(last, 'text-[0.6875rem] font-medium')}>
        {columns
          .filter((column) => column.group)
          .map((column) => (
            <HeaderCell key={column.key} column={column} props={props} first={false} top="second" />
          ))}
      </tr>
    </>
  );
}

function DataGrid<T>(props: DataTableProps<T>) {
  const { caption, columns, rows, rowKey, className, stickyFirstColumn, editable, stickyHeader } = props;
  return (
    // Keyboard users scroll a table wider than its card too: the scroll box takes focus (axe's
    // scrollable-region-focusable), named after the table it holds.
    <section
      aria-label={caption}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must be reachable to scroll by keyboard
      tabIndex={0}
      className={clsx(
        'relative focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
        stickyHeader ? 'overflow-auto' : 'overflow-x-auto',
        className,
      )}
    >
      <table className="w-full text-[0.8125rem] whitespace-nowrap sm:text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <HeaderRows props={props} />
        </thead>
        <tbody className="divide-y divide-line">
          {rows && hasRows(props) ? (
            rows.map((row, index) => (
              <tr
                key={rowKey(row)}
                className={clsx('group', !editable && 'transition-colors hover:bg-surface-2/50')}
              >
                {columns.map((column, i) => {
                  const Cell = column.rowHeader ? 'th' : 'td';
                  return (
                    <Cell
                      key={column.key}
                      scope={column.rowHeader ? 'row' : undefined}
                      className={clsx(
                        bodyPadding(props, column),
                        aligns[column.align ?? 'left'],
                        column.cellClassName?.(row) || 'text-fg',
                        column.rowHeader && 'font-medium',
                        column.className,
                        i === 0 &&
                          stickyFirstColumn &&
                          clsx(STICKY, 'bg-surface', !editable && 'group-hover:bg-surface-2'),
                      )}
                    >
                      {column.cell(row, index)}
                    </Cell>
                  );
                })}
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
