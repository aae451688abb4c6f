import type { PlatformPage } from '@gridbot/shared';
import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';
import { type DataColumn, DataTable } from '../../../components/ui/data-table';
import { Pagination } from '../../../components/ui/pagination';
import { formatDate } from '../../../lib/format';
import { platformErrorMessage } from '../api/platform-client';

/** The last column of every platform history: when the record was made. */
export function dateColumn<T extends { createdAt: string }>(): DataColumn<T> {
  return { key: 'date', header: 'Date', cell: (r) => formatDate(r.createdAt), className: 'text-muted' };
}

interface HistorySectionProps<T> {
  title: string;
  columns: readonly DataColumn<T>[];
  rowKey: (row: T) => string;
  query: {
    data: PlatformPage<T> | undefined;
    isPending: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  page: number;
  onPageChange: (page: number) => void;
  /** docs/spec/01-core-screens.md §8: the referral lists log failures and show the empty text instead. */
  hideErrors?: boolean;
  actions?: ReactNode;
}

/** A platform history list: title, records table (10 a page), pagination when there is more than one page. */
export function HistorySection<T>({
  title,
  columns,
  rowKey,
  query,
  page,
  onPageChange,
  hideErrors = false,
  actions,
}: HistorySectionProps<T>) {
  const pages = query.data?.pages ?? 0;
  const error = query.isError && !hideErrors ? platformErrorMessage(query.error, 'Could not load.') : null;
  return (
    <Card className="p-3 sm:p-5">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3 px-1 sm:px-0">
        <h2 className="text-base font-semibold text-fg">{title}</h2>
        {actions}
      </div>
      <DataTable
        caption={title}
        columns={columns}
        rows={query.isError ? [] : query.data?.records}
        rowKey={rowKey}
        loading={query.isPending}
        error={error}
        onRetry={() => void query.refetch()}
      />
      {pages > 1 ? (
        <Pagination
          className="mt-4"
          label={`${title} pages`}
          page={page}
          pages={pages}
          onChange={onPageChange}
        />
      ) : null}
    </Card>
  );
}
