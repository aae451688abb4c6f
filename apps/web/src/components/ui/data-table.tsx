import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { Button } from './button';

export interface DataColumn<T> {
  key: string;
  header: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  align?: 'left' | 'right' | 'center';
  className?: string;
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
}

/** The 'No' column; `numberOf` turns a row's index on the page into its number across pages. */
export function rowNumberColumn<T>(numberOf: (index: number) => number): DataColumn<T> {
  return {
    key: 'no',
    header: 'No',
    cell: (_row, index) => numberOf(index),
    className: 'text-muted tabular-nums',
  };
}

const cell = 'px-3 py-3 sm:px-4';
const aligns = { left: 'text-left', right: 'text-right', center: 'text-center' };

/** A plain records table with one row of text while loading, on error and when empty. */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  loading,
  error,
  onRetry,
  loadingText = 'Loading...',
  emptyText = 'No Records Found.',
  className,
}: DataTableProps<T>) {
  const message = (content: ReactNode, role?: 'status' | 'alert') => (
    <tr>
      <td colSpan={columns.length} className="px-4 py-10 text-center text-sm text-muted">
        <div role={role}>{content}</div>
      </td>
    </tr>
  );
  let body: ReactNode;
  if (loading) body = message(loadingText, 'status');
  else if (error)
    body = message(
      <>
        <span className="block">{error}</span>
        {onRetry ? (
          <Button variant="outline" size="sm" className="mt-3" onClick={onRetry}>
            Retry
          </Button>
        ) : null}
      </>,
      'alert',
    );
  else if (!rows || rows.length === 0) body = message(emptyText);
  else
    body = rows.map((row, index) => (
      <tr key={rowKey(row)} className="transition-colors hover:bg-surface-2/50">
        {columns.map((column) => (
          <td
            key={column.key}
            className={clsx(cell, aligns[column.align ?? 'left'], 'text-fg', column.className)}
          >
            {column.cell(row, index)}
          </td>
        ))}
      </tr>
    ));

  return (
    <div className={clsx('relative overflow-x-auto', className)}>
      <table className="w-full text-[0.8125rem] whitespace-nowrap sm:text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-line text-xs font-semibold tracking-wide text-muted uppercase">
            {columns.map((column) => (
              <th key={column.key} scope="col" className={clsx(cell, aligns[column.align ?? 'left'])}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">{body}</tbody>
      </table>
    </div>
  );
}
