import type { SecurityLogEntry } from '@gridbot/shared';
import { useState } from 'react';
import { Card, CardHeader } from '../../../components/ui/card';
import { type DataColumn, DataTable } from '../../../components/ui/data-table';
import { Pagination } from '../../../components/ui/pagination';
import { formatDateTime } from '../../../lib/format';
import { useSecurityLog } from '../api/security';

const columns: DataColumn<SecurityLogEntry>[] = [
  { key: 'when', header: 'When', cell: (e) => formatDateTime(e.createdAt) },
  {
    key: 'event',
    header: 'Event',
    cell: (e) => (
      <span className={e.type === 'login_failed' ? 'font-medium text-down' : undefined}>{e.label}</span>
    ),
  },
  { key: 'ip', header: 'IP', cell: (e) => <span className="font-mono">{e.ip ?? '—'}</span> },
  { key: 'detail', header: 'Detail', cell: (e) => e.detail ?? '—' },
];

/** Sign-ins, password, two-factor and key changes, withdrawals: newest first, 20 a page. */
export function SecurityLogCard() {
  const [page, setPage] = useState(1);
  const log = useSecurityLog(page);
  const pages = log.data ? Math.ceil(log.data.total / log.data.pageSize) : 1;
  return (
    <Card>
      <CardHeader
        title="Security log"
        description="Every sign-in and change to what protects your account."
      />
      <DataTable
        caption="Security log"
        columns={columns}
        rows={log.data?.items}
        rowKey={(e) => e.id}
        loading={log.isPending}
        error={log.isError ? 'Could not load the security log.' : null}
        onRetry={() => void log.refetch()}
      />
      {pages > 1 ? (
        <Pagination page={page} pages={pages} onChange={setPage} label="Security log pages" className="p-4" />
      ) : null}
    </Card>
  );
}
