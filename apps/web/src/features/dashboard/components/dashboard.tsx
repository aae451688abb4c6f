import type { BotSummary, GridBotView, PieChartData, PieSlice, ProfitTotals } from '@gridbot/shared';
import { memo, type ReactNode, useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { cardGridClass } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { AlertIcon, PlayIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tabs } from '../../../components/ui/tabs';
import { isApiError } from '../../../lib/api-client';
import { useLiveBots, usePieCharts, useProfitTotals, useRunningGrids } from '../api/dashboard-queries';
import { countBots, pieSlices } from '../lib/pie';
import { DailyProfitChart } from './daily-profit-chart';
import { FundsFigures } from './funds-figures';
import { FundsPie } from './funds-pie';
import { LiveBotCard } from './live-bot-card';
import { RangeGridCard } from './range-grid-card';

type BotTab = 'all' | 'multigrid' | 'scalping' | 'grid';
const TABS = [
  { value: 'all', label: 'ALL' },
  { value: 'multigrid', label: 'MULTIGRID' },
  { value: 'scalping', label: 'SCALPING' },
  { value: 'grid', label: 'GRID' },
] as const;
const TAB_NAMES = { multigrid: 'Multigrid', scalping: 'Scalping', grid: 'grid' } as const;

/** The running grids' investments as the pie's slices, labelled as the server labels the other bots'. */
function gridSlices(grids: readonly GridBotView[]): PieSlice[] {
  return grids.map((grid) => ({
    label: `${grid.symbol.replace(/USDT$/, '/USDT')} ${grid.category}`,
    value: grid.investment,
  }));
}

const startLink = (
  <Link to="/startbot" className={buttonClasses('primary')}>
    <PlayIcon className="size-4" /> Start BOT
  </Link>
);

const startGridLink = (
  <Link to="/grid" className={buttonClasses('primary')}>
    <PlayIcon className="size-4" /> Start Grid
  </Link>
);

/**
 * Why Total USDT and Available Balance show no figure: no exchange connected yet (with the way to API
 * Setting), or the exchange's answer to the balance call.
 */
function FundsNotice({ error, notConnected }: { error?: unknown; notConnected: boolean }) {
  return (
    <div
      role="note"
      className="flex flex-wrap items-center gap-3 rounded-xl border border-warn/40 bg-warn/10 p-4 text-sm"
    >
      <AlertIcon className="size-5 shrink-0 text-warn" />
      <p className="min-w-0 flex-1 basis-64 text-fg">
        {notConnected
          ? 'No exchange connected: connect your exchange API keys in API Setting to see your balances and start bots.'
          : `Your balances could not be loaded. ${isApiError(error) && error.fromServer ? error.message : ''}`}
      </p>
      {notConnected ? (
        <Link to="/api-setting" className={buttonClasses('outline', 'sm')}>
          Go to API Setting
        </Link>
      ) : null}
    </div>
  );
}

/**
 * docs/spec/01-core-screens.md Dashboard. `paused` stops the 10 s refresh while the disclaimer is open; `notices`
 * (composed by the route from other features) shows under the header, above the funds.
 */
export function Dashboard({ paused, notices }: { paused: boolean; notices?: ReactNode }) {
  const live = useLiveBots(paused);
  const pies = usePieCharts(paused);
  const totals = useProfitTotals(paused);
  const grids = useRunningGrids(paused);
  // The answers arrive one by one, and a query's update renders at once, in one piece: each would redraw the
  // whole page in one long task. The page draws from deferred copies instead, which React renders in slices
  // between which the browser stays responsive; this component alone renders at each answer.
  const view: DashboardView = {
    bots: useDeferredValue(live.bots),
    botsLoading: useDeferredValue(live.loading),
    grids: useDeferredValue(grids.grids),
    multigrid: useDeferredValue(pies.multigrid.data),
    multigridPending: useDeferredValue(pies.multigrid.isPending),
    multigridError: useDeferredValue(pies.multigrid.error),
    scalping: useDeferredValue(pies.scalping.data),
    scalpingPending: useDeferredValue(pies.scalping.isPending),
    totals: useDeferredValue(totals.data),
    totalsPending: useDeferredValue(totals.isPending),
  };
  return <DashboardPage {...view} notices={notices} />;
}

/** The dashboard's answers as last drawn: each undefined, or pending, until its first answer. */
interface DashboardView {
  bots: BotSummary[];
  botsLoading: boolean;
  /** Running range grids. */
  grids: GridBotView[];
  multigrid: PieChartData | undefined;
  multigridPending: boolean;
  multigridError: Error | null;
  scalping: PieChartData | undefined;
  scalpingPending: boolean;
  totals: ProfitTotals | undefined;
  totalsPending: boolean;
  notices?: ReactNode;
}

const DashboardPage = memo(function DashboardPage(view: DashboardView) {
  const [tab, setTab] = useState<BotTab>('all');
  const summary = view.multigrid;
  const grids = gridSlices(view.grids);
  const slices = pieSlices(view.multigrid?.chartData, view.scalping?.chartData, grids);
  const botCount = countBots(view.multigrid?.chartData, view.scalping?.chartData, grids);
  const shown =
    tab === 'grid'
      ? []
      : view.bots.filter((bot) => tab === 'all' || (tab === 'scalping') === (bot.tradeType === 'scalp'));
  const shownGrids = tab === 'all' || tab === 'grid' ? view.grids : [];

  return (
    <>
      <PageHeader title="Dashboard" description="Your running bots, funds and profit." actions={startLink} />
      <div className="space-y-6">
        {view.notices}
        {summary?.connected === false ? (
          <FundsNotice notConnected />
        ) : view.multigridError && !summary ? (
          <FundsNotice error={view.multigridError} notConnected={false} />
        ) : null}
        <FundsFigures
          figures={[
            { label: 'Total USDT', value: summary?.usdt, loading: view.multigridPending },
            {
              label: 'Available Balance',
              value: summary?.availableBalance,
              loading: view.multigridPending,
            },
            {
              label: 'Total Profit',
              value: view.totals?.totalProfit,
              loading: view.totalsPending,
              signed: true,
            },
            { label: 'Loss Book', value: view.totals?.lossBook, loading: view.totalsPending, signed: true },
            { label: 'Total PnL', value: view.totals?.totalpnl, loading: view.totalsPending, signed: true },
          ]}
        />
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
          <DailyProfitChart bots={view.bots} />
          <FundsPie
            slices={slices}
            botCount={botCount}
            loading={view.multigridPending && view.scalpingPending}
          />
        </div>
        <section aria-labelledby="live-bots-title" className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="live-bots-title" className="text-lg font-semibold text-fg">
              Live Bots
            </h2>
          </div>
          <Tabs label="Bot type" items={TABS} value={tab} onChange={setTab}>
            {view.botsLoading ? (
              <div className={cardGridClass}>
                <Skeleton className="h-56 rounded-xl" />
                <Skeleton className="h-56 rounded-xl" />
              </div>
            ) : shown.length + shownGrids.length === 0 ? (
              <EmptyState
                icon={<PlayIcon />}
                title={tab === 'all' ? 'No bots running' : `No ${TAB_NAMES[tab]} bots running`}
                description={
                  tab === 'grid'
                    ? 'Start a grid of limit orders between two prices; it shows up here while it runs.'
                    : 'Start a bot with one of your strategies or a system strategy; it shows up here while it runs.'
                }
                action={tab === 'grid' ? startGridLink : startLink}
              />
            ) : (
              <div className={cardGridClass}>
                {shown.map((bot) => (
                  <LiveBotCard key={`${bot.tradeType}-${bot.id}`} bot={bot} />
                ))}
                {shownGrids.map((grid) => (
                  <RangeGridCard key={`grid-${grid.id}`} grid={grid} />
                ))}
              </div>
            )}
          </Tabs>
        </section>
      </div>
    </>
  );
});
