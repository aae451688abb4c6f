import type { PlatformPage } from '@gridbot/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { type DataColumn, DataTable } from '../../../components/ui/data-table';
import { Pagination } from '../../../components/ui/pagination';
import { ADMIN_PAGE_SIZE } from '../api/admin-queries';

interface PagedTableProps<T> {
  caption: string;
  columns: readonly DataColumn<T>[];
  rowKey: (row: T) => string;
  query: UseQueryResult<PlatformPage<T>>;
  page: number;
  onPageChange: (page: number) => void;
  emptyText?: string;
}

/** Row number across pages of an admin list. */
export function adminRowNumber(page: number, index: number): number {
  return ADMIN_PAGE_SIZE * (page - 1) + index + 1;
}

/** A person in a list cell: the name in bold (then `aside`, e.g. a badge), a muted detail line under it. */
export function NameCell({ name, detail, aside }: { name: ReactNode; detail: ReactNode; aside?: ReactNode }) {
  return (
    <span>
      <span className="font-semibold">{name}</span>
      {aside === undefined ? null : <> {aside}</>}
      <span className="block text-xs text-muted">{detail}</span>
    </span>
  );
}

export function PagedTable<T>({
  caption,
  columns,
  rowKey,
  query,
  page,
  onPageChange,
  emptyText,
}: PagedTableProps<T>) {
  const pages = query.data?.pages ?? 0;
  return (
    <>
      <DataTable
        caption={caption}
        columns={columns}
        rows={query.data?.records}
        rowKey={rowKey}
        loading={query.isPending}
        error={query.isError ? query.error.message : null}
        onRetry={() => void query.refetch()}
        emptyText={emptyText}
      />
      {pages > 1 ? (
        <Pagination
          className="mt-4"
          label={`${caption} pages`}
          page={page}
          pages={pages}
          onChange={onPageChange}
        />
      ) : null}
    </>
  );
}
