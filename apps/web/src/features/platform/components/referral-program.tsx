import {
  type LevelReward,
  platformMessages as m,
  type RewardRecord,
  type SessionUser,
} from '@gridbot/shared';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CopyButton } from '../../../components/ui/copy-button';
import { type DataColumn, DataTable, rowNumberColumn } from '../../../components/ui/data-table';
import { GiftIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { formatUsd } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { rowNumber } from '../api/platform-client';
import { useLevelRewards, useRewardHistory } from '../api/platform-queries';
import { formatAmount } from '../lib/platform-format';
import { dateColumn, HistorySection } from './history-section';

/** The sign-up link that prefills the referral ID. */
export function referralLink(userCode: string, origin = window.location.origin): string {
  return `${origin}/signup?ref=${encodeURIComponent(userCode)}`;
}

const levelColumns: DataColumn<LevelReward>[] = [
  { key: 'level', header: 'Level', cell: (r) => `Level ${r.level}` },
  { key: 'pct', header: 'Reward %', cell: (r) => `${r.rewardPercentage}%`, align: 'right' },
];

function historyColumns(page: number): DataColumn<RewardRecord>[] {
  return [
    rowNumberColumn((i) => rowNumber(page, i)),
    { key: 'amount', header: 'Amount', cell: (r) => `$${formatAmount(r.amount)}`, align: 'right' },
    { key: 'pct', header: '%', cell: (r) => `${r.percentage}%`, align: 'right' },
    { key: 'user', header: 'Referred User', cell: (r) => r.fromUserName },
    dateColumn(),
  ];
}

/** docs/spec/01-core-screens.md §8: level-income failures are logged only; the tables then show 'No Records Found.' */
function useLogged(error: unknown, what: string) {
  useEffect(() => {
    if (error) console.error(`Failed to load ${what}`, error);
  }, [error, what]);
}

function ShareButton({ link }: { link: string }) {
  const share = async () => {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: 'Join me on GridBot', url: link });
      } catch (error) {
        if (!(error instanceof DOMException && error.name === 'AbortError')) console.error(error);
      }
      return;
    }
    try {
      await navigator.clipboard.writeText(link);
      toast.success('Referral link copied successfully!');
    } catch {
      toast.error('Could not copy. Please copy it by hand.');
    }
  };
  return (
    <Button variant="outline" onClick={() => void share()}>
      Share
    </Button>
  );
}

function ReferralId({ userCode }: { userCode: string }) {
  const link = referralLink(userCode);
  return (
    <div className="rounded-xl border border-line bg-surface-2/50 p-4">
      <h2 className="text-sm font-medium text-muted">My Referral ID</h2>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <span className="font-mono text-xl font-bold tracking-wider text-fg">{userCode}</span>
        <CopyButton
          value={userCode}
          label="Copy referral ID"
          successMessage="Referral ID copied successfully!"
        />
        <ShareButton link={link} />
      </div>
      <div className="mt-3 flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate rounded-lg border border-line bg-surface px-3 py-2 font-mono text-xs text-muted sm:text-sm">
          {link}
        </span>
        <CopyButton
          value={link}
          label="Copy referral link"
          successMessage="Referral link copied successfully!"
        />
      </div>
    </div>
  );
}

/** docs/spec/01-core-screens.md Referral program (/referral-program). */
export function ReferralProgram({ account }: { account: SessionUser }) {
  const [page, setPage] = useState(1);
  const levels = useLevelRewards();
  const history = useRewardHistory(page);
  useLogged(levels.error, 'level rewards');
  useLogged(history.error, 'reward history');

  return (
    <>
      <PageHeader title="Referral Program" />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)] lg:gap-6">
        <Card className="flex flex-col gap-5 p-5">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <div>
              <h2 className="flex items-center gap-2 text-sm font-medium text-muted">
                <GiftIcon className="size-4.5 text-primary" />
                Rewards Earned
              </h2>
              <p className="mt-2 text-3xl font-bold tracking-tight text-fg tabular-nums">
                {formatUsd(account.usdtRewardToken || 0)}
              </p>
            </div>
            <Link to="/withdraw" className={buttonClasses('primary')}>
              Withdraw
            </Link>
          </div>
          <p className="text-sm leading-relaxed text-muted">{m.referralText}</p>
          {account.userCode ? <ReferralId userCode={account.userCode} /> : null}
        </Card>
        <Card className="p-3 sm:p-5">
          <h2 className="mb-3 px-1 text-base font-semibold text-fg sm:px-0">Reward by Level</h2>
          <DataTable
            caption="Reward by Level"
            columns={levelColumns}
            rows={levels.isError ? [] : levels.data}
            rowKey={(r) => String(r.level)}
            loading={levels.isPending}
            tableOnPhone
          />
        </Card>
      </div>
      <div className="mt-4 lg:mt-6">
        <HistorySection
          title="Reward History"
          columns={historyColumns(page)}
          rowKey={(r) => r.id}
          query={history}
          page={page}
          onPageChange={setPage}
          hideErrors
        />
      </div>
    </>
  );
}
