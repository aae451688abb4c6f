import {
  type SessionUser,
  type SubscriptionPlan,
  type SubscriptionRecord,
  subscriptionStatusOf,
} from '@gridbot/shared';
import { clsx } from 'clsx';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { type DataColumn, rowNumberColumn } from '../../../components/ui/data-table';
import { EmptyState } from '../../../components/ui/empty-state';
import { CrownIcon, LayersIcon, ShieldIcon, WalletIcon, ZapIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Skeleton } from '../../../components/ui/skeleton';
import { platformErrorMessage, rowNumber } from '../api/platform-client';
import { useSubscriptionHistory, useSubscriptionPlans } from '../api/platform-queries';
import { formatAmount } from '../lib/platform-format';
import { PLANS_NOTE, PROFIT_LIMIT_NOTE, subscriptionStatusNote } from '../lib/subscription-notes';
import { dateColumn, HistorySection } from './history-section';
import { priceText } from './plan-price';
import { StatCard } from './stat-card';
import { SubscribeModal } from './subscribe-modal';

const STATUS_CLASSES: Record<string, string> = {
  Active: 'bg-up/12 text-up ring-up/25',
  'In-Active': 'bg-down/12 text-down ring-down/25',
  Pending: 'bg-warn/12 text-warn ring-warn/25',
};

/** docs/spec/02-bots-wallet-account.md §4 shows the status as written (Pending, Active, In-Active), so no upper-case badge here. */
function StatusBadge({ status, large = false }: { status: string; large?: boolean }) {
  return (
    <span
      className={clsx(
        'inline-flex items-center gap-1.5 rounded-md font-semibold ring-1 ring-inset',
        large ? 'px-2.5 py-1 text-base' : 'px-1.5 py-0.5 text-xs',
        STATUS_CLASSES[status] ?? 'bg-surface-2 text-muted ring-line',
      )}
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      {status}
    </span>
  );
}

function historyColumns(page: number): DataColumn<SubscriptionRecord>[] {
  return [
    rowNumberColumn((i) => rowNumber(page, i)),
    {
      key: 'plan',
      header: 'Plan',
      cell: (r) => (
        <span>
          <span className="font-semibold">{r.planName}</span>
          <span className="block text-xs text-muted">{priceText(r)}</span>
        </span>
      ),
    },
    {
      key: 'limit',
      header: 'Profit Limit',
      cell: (r) => `$${formatAmount(r.availableCredit)}`,
      align: 'right',
    },
    { key: 'status', header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
    dateColumn(),
  ];
}

function PlanCard({ plan, onSubscribe }: { plan: SubscriptionPlan; onSubscribe: () => void }) {
  return (
    <Card className="flex flex-col p-5">
      <h3 className="text-base font-semibold text-fg">{plan.name}</h3>
      <p className="mt-3 text-xl font-bold tracking-tight text-fg tabular-nums">{priceText(plan)}</p>
      <p className="mt-1 text-sm text-muted">
        Profit limit <span className="font-semibold text-up">${formatAmount(plan.availableCredit)}</span>
      </p>
      <Button className="mt-5" fullWidth onClick={onSubscribe} aria-label={`Subscribe to ${plan.name}`}>
        Subscribe
      </Button>
    </Card>
  );
}

function Plans({ onSubscribe }: { onSubscribe: (plan: SubscriptionPlan) => void }) {
  const plans = useSubscriptionPlans();
  if (plans.isPending) {
    return (
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" role="status" aria-label="Loading plans">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-44 rounded-xl" />
        ))}
      </div>
    );
  }
  if (plans.isError) {
    return (
      <EmptyState
        title="Plans could not be loaded"
        description={platformErrorMessage(plans.error, 'Please try again.')}
        action={
          <Button variant="outline" onClick={() => void plans.refetch()}>
            Retry
          </Button>
        }
      />
    );
  }
  const offered = plans.data.filter((plan) => plan.active);
  if (offered.length === 0)
    return <EmptyState icon={<CrownIcon />} title="No plans are offered right now." />;
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {offered.map((plan) => (
        <PlanCard key={plan.id} plan={plan} onSubscribe={() => onSubscribe(plan)} />
      ))}
    </div>
  );
}

interface SubscriptionPageProps {
  account: SessionUser;
  onAccountChanged: () => void;
}

/** docs/spec/02-bots-wallet-account.md Subscription (/subscription). */
export function SubscriptionPage({ account, onAccountChanged }: SubscriptionPageProps) {
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<SubscriptionPlan | null>(null);
  const history = useSubscriptionHistory(page);
  const status = subscriptionStatusOf(account.isActiveSubscription);

  return (
    <>
      <PageHeader title="Subscription" description="Your profit limit, platform wallets and plans." />
      <div className="space-y-6">
        <section
          aria-label="Subscription overview"
          className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5"
        >
          <StatCard
            label="Profit Limit Remained"
            icon={<ShieldIcon />}
            value={`$${formatAmount(account.availableCredit)}`}
            note={PROFIT_LIMIT_NOTE}
            highlight
            className="col-span-2 sm:col-span-1"
          />
          <StatCard
            label="Subscription Status"
            icon={<CrownIcon />}
            value={<StatusBadge status={status} large />}
            note={subscriptionStatusNote(status, account.availableCredit)}
            className="col-span-2 sm:col-span-1"
          />
          <StatCard
            label="USDT Wallet"
            icon={<WalletIcon />}
            value={formatAmount(account.usdtToken)}
            unit="USDT"
          />
          <StatCard
            label="IFC Wallet"
            icon={<LayersIcon />}
            value={formatAmount(account.ifcToken)}
            unit="IFC"
          />
          <StatCard
            label="IFX Wallet"
            icon={<ZapIcon />}
            value={formatAmount(account.ifxToken)}
            unit="IFX"
            className="col-span-2 lg:col-span-1"
          />
        </section>
        <div className="flex flex-wrap gap-2">
          <Link to="/Wallet-deposit" className={buttonClasses('primary')}>
            Deposit
          </Link>
          <Link to="/withdraw" className={buttonClasses('outline')}>
            Withdraw
          </Link>
        </div>
        <section aria-labelledby="add-subscription">
          <h2 id="add-subscription" className="mb-3 text-lg font-semibold text-fg">
            Add Subscription
          </h2>
          <p className="-mt-2 mb-3 text-sm text-muted">{PLANS_NOTE}</p>
          <Plans onSubscribe={setChosen} />
        </section>
        <HistorySection
          title="Subscription History"
          columns={historyColumns(page)}
          rowKey={(r) => r.id}
          query={history}
          page={page}
          onPageChange={setPage}
        />
      </div>
      <SubscribeModal
        plan={chosen}
        account={account}
        onAccountChanged={onAccountChanged}
        onClose={() => setChosen(null)}
      />
    </>
  );
}
