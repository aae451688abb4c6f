import type { SessionUser, WithdrawRecord } from '@gridbot/shared';
import { useState } from 'react';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { type DataColumn, rowNumberColumn } from '../../../components/ui/data-table';
import { GiftIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { shortHash } from '../../../lib/format';
import { rowNumber } from '../api/platform-client';
import { useWithdrawHistory } from '../api/platform-queries';
import { formatAmount } from '../lib/platform-format';
import { dateColumn, HistorySection } from './history-section';
import { SwapRewardModal } from './swap-reward-modal';
import { TxHashLink } from './tx-hash-link';
import { WithdrawForm } from './withdraw-form';

const STATUS_TONE: Record<string, BadgeTone> = { PENDING: 'warn', SENT: 'up', REJECTED: 'down' };

/** docs/spec/02-bots-wallet-account.md §4: the status in upper case with a style per status; SENT links its transaction. */
export function WithdrawStatus({
  record,
}: {
  record: Pick<WithdrawRecord, 'status' | 'txHash'> & { rejectReason?: string | null };
}) {
  const status = record.status.toUpperCase();
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <Badge tone={STATUS_TONE[status] ?? 'neutral'} className="text-xs">
        {status}
      </Badge>
      {status === 'SENT' && record.txHash ? <TxHashLink hash={record.txHash} className="text-xs" /> : null}
      {/* A rejection says why: the user needs the reason to try again, not only the administrator. */}
      {status === 'REJECTED' && record.rejectReason ? (
        <span className="max-w-56 text-xs text-muted">Reason: {record.rejectReason}</span>
      ) : null}
    </span>
  );
}

function historyColumns(page: number): DataColumn<WithdrawRecord>[] {
  return [
    rowNumberColumn((i) => rowNumber(page, i)),
    {
      key: 'amount',
      header: 'Amount',
      // The spec's five columns stay; the fee kept from the amount shows under it.
      cell: (r) => (
        <span className="inline-flex flex-col items-end">
          <span>${formatAmount(r.amount)}</span>
          <span className="text-xs text-muted">Fee ${formatAmount(r.fee)}</span>
        </span>
      ),
      align: 'right',
    },
    {
      key: 'address',
      header: 'Wallet Address',
      cell: (r) => (
        <span title={r.toAddress} className="font-mono">
          {shortHash(r.toAddress, 8, 6)}
        </span>
      ),
    },
    { key: 'status', header: 'Status', cell: (r) => <WithdrawStatus record={r} /> },
    dateColumn(),
  ];
}

interface WithdrawPageProps {
  account: SessionUser;
  onAccountChanged: () => void;
}

/** docs/spec/02-bots-wallet-account.md Withdraw (/withdraw). */
export function WithdrawPage({ account, onAccountChanged }: WithdrawPageProps) {
  const [page, setPage] = useState(1);
  const [swapOpen, setSwapOpen] = useState(false);
  const history = useWithdrawHistory(page);
  const rewards = account.usdtRewardToken || '0';

  return (
    <>
      <PageHeader title="Withdraw" description="Withdraw your referral rewards to a BEP-20 wallet." />
      <div className="space-y-6">
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2 lg:gap-6">
          <Card className="flex flex-col justify-between gap-5 bg-linear-to-br from-primary-soft to-transparent p-5">
            <div>
              <h2 className="flex items-center gap-2 text-sm font-medium text-muted">
                <GiftIcon className="size-4.5 text-primary" />
                Rewards Earned (USDT)
              </h2>
              <p className="mt-2 text-3xl font-bold tracking-tight text-fg tabular-nums">
                {formatAmount(rewards)} <span className="text-base font-semibold text-muted">USDT</span>
              </p>
              <p className="mt-1 text-sm text-muted">
                USDT wallet: <span className="tabular-nums">{formatAmount(account.usdtToken)}</span> USDT
              </p>
            </div>
            <div>
              <Button variant="outline" onClick={() => setSwapOpen(true)}>
                Transfer to USDT Wallet
              </Button>
            </div>
          </Card>
          <Card className="p-5">
            <WithdrawForm onAccountChanged={onAccountChanged} fee={history.data?.withdrawFee} />
          </Card>
        </div>
        <HistorySection
          title="Withdraw History"
          columns={historyColumns(page)}
          rowKey={(r) => r.id}
          query={history}
          page={page}
          onPageChange={setPage}
        />
      </div>
      <SwapRewardModal
        open={swapOpen}
        onClose={() => setSwapOpen(false)}
        rewardBalance={rewards}
        onAccountChanged={onAccountChanged}
      />
    </>
  );
}
