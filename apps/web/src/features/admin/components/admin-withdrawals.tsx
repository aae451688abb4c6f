import {
  type AdminWithdrawRecord,
  adminApproveWithdrawalInputSchema,
  platformMessages as m,
  type WithdrawStatus,
} from '@gridbot/shared';
import { useState } from 'react';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { type DataColumn, rowNumberColumn } from '../../../components/ui/data-table';
import { Input } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { Tabs } from '../../../components/ui/tabs';
import { errorMessage } from '../../../lib/api-client';
import { formatDate, shortHash } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { useAdminWithdrawals, useApproveWithdrawal, useRejectWithdrawal } from '../api/admin-queries';
import { formatDecimal } from './admin-format';
import { adminRowNumber, NameCell, PagedTable } from './paged-table';

type Filter = WithdrawStatus | 'ALL';
const FILTERS = [
  { value: 'PENDING', label: 'Pending' },
  { value: 'SENT', label: 'Sent' },
  { value: 'REJECTED', label: 'Rejected' },
  { value: 'ALL', label: 'All' },
] as const;
const TONE: Record<WithdrawStatus, BadgeTone> = { PENDING: 'warn', SENT: 'up', REJECTED: 'down' };

type Decision = { kind: 'approve' | 'reject'; record: AdminWithdrawRecord } | null;

function DecisionModal({ decision, onClose }: { decision: Decision; onClose: () => void }) {
  const approve = useApproveWithdrawal();
  const reject = useRejectWithdrawal();
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const busy = approve.isPending || reject.isPending;
  const record = decision?.record;

  const close = () => {
    setText('');
    setFieldError(undefined);
    onClose();
  };

  const submit = async () => {
    if (!decision || !record) return;
    try {
      if (decision.kind === 'approve') {
        const parsed = adminApproveWithdrawalInputSchema.safeParse({ txHash: text.trim() || undefined });
        if (!parsed.success) {
          setFieldError(parsed.error.issues[0]?.message);
          return;
        }
        const { message } = await approve.mutateAsync({ id: record.id, txHash: parsed.data.txHash });
        toast.success(message || m.withdrawalApproved);
      } else {
        const { message } = await reject.mutateAsync({ id: record.id, reason: text.trim() || undefined });
        toast.success(message || m.withdrawalRejected);
      }
      close();
    } catch (error) {
      const message = errorMessage(error, 'The decision could not be saved. Please try again.');
      setFieldError(message);
      toast.error(message);
    }
  };

  const approving = decision?.kind === 'approve';
  return (
    <Modal
      open={decision !== null}
      onClose={busy ? undefined : close}
      title={approving ? 'Approve withdrawal' : 'Reject withdrawal'}
      description={
        record
          ? `${formatDecimal(record.amount)} USDT (fee ${formatDecimal(record.fee)}) for ${record.username} to ${shortHash(record.toAddress, 8, 6)}`
          : undefined
      }
      size="sm"
      footer={
        <>
          <Button variant="ghost" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button variant={approving ? 'primary' : 'danger'} loading={busy} onClick={() => void submit()}>
            {approving ? 'Mark as sent' : 'Reject and refund'}
          </Button>
        </>
      }
    >
      <Input
        label={approving ? 'Transaction hash' : 'Reason (optional)'}
        hint={
          approving
            ? 'Enter the hash of the payout you sent, or leave it empty to pay from the hot wallet.'
            : 'The held amount goes back to the rewards balance.'
        }
        placeholder={approving ? '0x…' : ''}
        className={approving ? 'font-mono' : undefined}
        value={text}
        maxLength={approving ? 66 : 200}
        error={fieldError}
        onChange={(event) => {
          setText(event.target.value);
          setFieldError(undefined);
        }}
      />
    </Modal>
  );
}

/** Withdrawal requests: approve (SENT with the hash) or reject (refunded). */
export function AdminWithdrawals() {
  const [filter, setFilter] = useState<Filter>('PENDING');
  const [page, setPage] = useState(1);
  const [decision, setDecision] = useState<Decision>(null);
  const query = useAdminWithdrawals(page, filter);

  const columns: DataColumn<AdminWithdrawRecord>[] = [
    rowNumberColumn((i) => adminRowNumber(page, i)),
    {
      key: 'user',
      header: 'User',
      cell: (r) => <NameCell name={r.username} detail={r.email} />,
    },
    { key: 'amount', header: 'Amount', cell: (r) => formatDecimal(r.amount), align: 'right' },
    { key: 'fee', header: 'Fee', cell: (r) => formatDecimal(r.fee), align: 'right' },
    {
      key: 'address',
      header: 'Wallet Address',
      cell: (r) => (
        <span className="font-mono" title={r.toAddress}>
          {shortHash(r.toAddress, 8, 6)}
        </span>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (r) => (
        <span className="inline-flex flex-col items-start gap-1 max-md:items-end">
          <Badge tone={TONE[r.status]} className="text-xs">
            {r.status}
          </Badge>
          {r.txHash ? (
            <span className="font-mono text-xs text-muted" title={r.txHash}>
              {shortHash(r.txHash, 10, 6)}
            </span>
          ) : null}
          {r.status === 'PENDING' && r.txHash ? (
            // The hot wallet sent it, but it was not seen mined (yet): check it on the chain before deciding.
            <span className="max-w-32 text-xs whitespace-normal text-warn">
              Payout sent, not confirmed yet
            </span>
          ) : null}
          {r.rejectReason ? (
            // A reason is free text: it wraps, or one long reason widens the whole table past its actions.
            <span className="max-w-48 text-xs whitespace-normal text-muted max-md:text-right">
              {r.rejectReason}
            </span>
          ) : null}
        </span>
      ),
    },
    // Date and time may break over two lines, and Approve and Reject stack from 768 to 1536 px: the table then
    // fits beside the sidebar on a laptop, its actions included. A phone's card has room for them side by side.
    {
      key: 'date',
      header: 'Date',
      cell: (r) => formatDate(r.createdAt),
      className: 'min-w-28 whitespace-normal text-muted',
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      label: 'Actions',
      align: 'right',
      cell: (r) =>
        r.status === 'PENDING' ? (
          <span className="inline-flex flex-col gap-1.5 max-md:flex-row 2xl:flex-row">
            <Button size="sm" onClick={() => setDecision({ kind: 'approve', record: r })}>
              Approve
            </Button>
            <Button size="sm" variant="outline" onClick={() => setDecision({ kind: 'reject', record: r })}>
              Reject
            </Button>
          </span>
        ) : null,
    },
  ];

  return (
    <div className="space-y-4">
      <Tabs
        label="Withdrawal status"
        items={FILTERS}
        value={filter}
        onChange={(value) => {
          setFilter(value);
          setPage(1);
        }}
      />
      <PagedTable
        caption="Withdrawals"
        columns={columns}
        rowKey={(r) => r.id}
        query={query}
        page={page}
        onPageChange={setPage}
      />
      <DecisionModal decision={decision} onClose={() => setDecision(null)} />
    </div>
  );
}
