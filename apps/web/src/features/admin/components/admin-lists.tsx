import type { AdminActionRecord, AdminUserRecord } from '@gridbot/shared';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { type DataColumn, rowNumberColumn } from '../../../components/ui/data-table';
import { formatDate } from '../../../lib/format';
import {
  type ContactMessageRecord,
  useAdminActions,
  useAdminMessages,
  useAdminUsers,
} from '../api/admin-queries';
import { formatDecimal } from './admin-format';
import { adminRowNumber, NameCell, PagedTable } from './paged-table';

export function AdminUsers() {
  const [page, setPage] = useState(1);
  const query = useAdminUsers(page);
  const columns: DataColumn<AdminUserRecord>[] = [
    rowNumberColumn((i) => adminRowNumber(page, i)),
    {
      key: 'user',
      header: 'User',
      cell: (u) => (
        <NameCell
          name={u.username}
          aside={u.role === 'admin' ? <Badge tone="primary">admin</Badge> : null}
          detail={u.email}
        />
      ),
    },
    { key: 'code', header: 'Referral ID', cell: (u) => <span className="font-mono">{u.userCode}</span> },
    { key: 'ref', header: 'Referred By', cell: (u) => u.referredByUserCode ?? '—' },
    { key: 'usdt', header: 'USDT', cell: (u) => formatDecimal(u.usdtToken), align: 'right' },
    { key: 'ifc', header: 'IFC', cell: (u) => formatDecimal(u.ifcToken), align: 'right' },
    { key: 'ifx', header: 'IFX', cell: (u) => formatDecimal(u.ifxToken), align: 'right' },
    { key: 'reward', header: 'Rewards', cell: (u) => formatDecimal(u.usdtRewardToken), align: 'right' },
    { key: 'credit', header: 'Profit Limit', cell: (u) => formatDecimal(u.availableCredit), align: 'right' },
    { key: 'date', header: 'Joined', cell: (u) => formatDate(u.createdAt), className: 'text-muted' },
  ];
  return (
    <PagedTable
      caption="Users"
      columns={columns}
      rowKey={(u) => u.id}
      query={query}
      page={page}
      onPageChange={setPage}
    />
  );
}

export function AdminMessages() {
  const [page, setPage] = useState(1);
  const query = useAdminMessages(page);
  const columns: DataColumn<ContactMessageRecord>[] = [
    rowNumberColumn((i) => adminRowNumber(page, i)),
    {
      key: 'from',
      header: 'From',
      cell: (c) => <NameCell name={c.name} detail={`${c.email} · ${c.contactNo}`} />,
    },
    {
      key: 'text',
      header: 'Message',
      // A phone's card has no room for the table's 16rem beside the label; long text reads better left-aligned.
      cell: (c) => <p className="max-w-xl text-left text-sm whitespace-pre-wrap sm:min-w-64">{c.text}</p>,
    },
    { key: 'date', header: 'Date', cell: (c) => formatDate(c.createdAt), className: 'text-muted align-top' },
  ];
  return (
    <PagedTable
      caption="Contact messages"
      columns={columns}
      rowKey={(c) => c.id}
      query={query}
      page={page}
      onPageChange={setPage}
    />
  );
}

export function AdminActivity() {
  const [page, setPage] = useState(1);
  const query = useAdminActions(page);
  const columns: DataColumn<AdminActionRecord>[] = [
    { key: 'date', header: 'When', cell: (a) => formatDate(a.createdAt), className: 'text-muted' },
    { key: 'who', header: 'Who', cell: (a) => a.adminEmail },
    { key: 'action', header: 'Action', cell: (a) => <span className="font-mono text-xs">{a.action}</span> },
    {
      key: 'target',
      header: 'Target',
      cell: (a) => <span className="font-mono text-xs">{a.target ?? '—'}</span>,
    },
    {
      key: 'details',
      header: 'Details',
      cell: (a) => (
        <span
          className="block max-w-md truncate font-mono text-xs text-muted"
          title={JSON.stringify(a.details)}
        >
          {a.details ? JSON.stringify(a.details) : '—'}
        </span>
      ),
    },
  ];
  return (
    <PagedTable
      caption="Admin activity"
      columns={columns}
      rowKey={(a) => a.id}
      query={query}
      page={page}
      onPageChange={setPage}
    />
  );
}
