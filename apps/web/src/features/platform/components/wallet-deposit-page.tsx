import { type DepositRecord, platformMessages as m, type SessionUser } from '@gridbot/shared';
import { useCallback, useEffect, useState } from 'react';
import { type DataColumn, rowNumberColumn } from '../../../components/ui/data-table';
import { EmptyState } from '../../../components/ui/empty-state';
import { AlertIcon, LayersIcon, WalletIcon, ZapIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { rowNumber } from '../api/platform-client';
import { useDepositHistory, useDepositOptions } from '../api/platform-queries';
import { formatAmount } from '../lib/platform-format';
import { DepositAddress } from './deposit-address';
import { dateColumn, HistorySection } from './history-section';
import { SimulatedDeposit } from './simulated-deposit';
import { StatCard } from './stat-card';
import { TxHashLink } from './tx-hash-link';

/** While listening the history and the balances are read every 10 s, like the other live screens. */
const LISTEN_POLL_MS = 10_000;

function historyColumns(page: number): DataColumn<DepositRecord>[] {
  return [
    rowNumberColumn((i) => rowNumber(page, i)),
    { key: 'coin', header: 'Coin', cell: (r) => <span className="font-semibold">{r.token}</span> },
    { key: 'amount', header: 'Amount', cell: (r) => formatAmount(r.amount), align: 'right' },
    {
      key: 'hash',
      header: 'Transaction Hash',
      cell: (r) => <TxHashLink hash={r.transactionHash} />,
    },
    dateColumn(),
  ];
}

interface WalletDepositPageProps {
  account: SessionUser;
  onAccountChanged: () => void;
}

/** docs/spec/02-bots-wallet-account.md Wallet Deposit (/Wallet-deposit). */
export function WalletDepositPage({ account, onAccountChanged }: WalletDepositPageProps) {
  const [page, setPage] = useState(1);
  const [listening, setListening] = useState(false);
  const history = useDepositHistory(page, listening ? LISTEN_POLL_MS : false);
  const onListeningChange = useCallback((value: boolean) => setListening(value), []);

  useEffect(() => {
    if (!listening) return;
    const id = setInterval(onAccountChanged, LISTEN_POLL_MS);
    return () => clearInterval(id);
  }, [listening, onAccountChanged]);

  const address = account.qrCode?.value;
  const options = useDepositOptions();
  const simulated = options.data?.simulated === true;

  return (
    <>
      <PageHeader
        title="Wallet Deposit"
        description="Deposit USDT, IFC or IFX on the BNB Smart Chain (BEP-20) to pay for subscriptions."
      />
      <div className="space-y-6">
        {/* Three in a row only where the section is wide enough (container queries), not beside the sidebar. */}
        <section aria-label="Platform balances" className="@container">
          <div className="grid grid-cols-2 gap-3 @2xl:grid-cols-3 @2xl:gap-4">
            <StatCard
              label="USDT Wallet"
              icon={<WalletIcon />}
              value={formatAmount(account.usdtToken)}
              unit="USDT"
              highlight
              className="col-span-2 @2xl:col-span-1"
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
            />
          </div>
        </section>
        {simulated ? <SimulatedDeposit onAccountChanged={onAccountChanged} /> : null}
        {/* A chain address shows at once; "not configured" waits until the simulated deposit is ruled out. */}
        {simulated ? null : address ? (
          <DepositAddress
            userId={account.id}
            address={address}
            onAccountChanged={onAccountChanged}
            onListeningChange={onListeningChange}
          />
        ) : options.isPending ? null : (
          <EmptyState
            icon={<AlertIcon />}
            title={m.depositsNotConfigured}
            description="No deposit address can be shown. Please contact support if you need to deposit."
          />
        )}
        <HistorySection
          title="Deposit History"
          columns={historyColumns(page)}
          rowKey={(r) => r.id}
          query={history}
          page={page}
          onPageChange={setPage}
        />
      </div>
    </>
  );
}
