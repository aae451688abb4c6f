import type { LiveCycle } from '@gridbot/shared';
import { clsx } from 'clsx';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Figure, signTone } from '../../../components/ui/figure';
import { AlertIcon } from '../../../components/ui/icons';
import { Sparkline } from '../../../components/ui/sparkline';
import { formatPair, formatPrice, formatSignedUsd, formatUsd } from '../../../lib/format';
import { CycleProgress } from './cycle-progress';

/** Live is highlighted (docs/spec/02-bots-wallet-account.md §4): green with a pulse; a halted cycle shows Pause in the warning colour. */
function CycleStatus({ status }: { status: LiveCycle['status'] }) {
  return (
    <Badge tone={status === 'Live' ? 'up' : 'warn'} className="normal-case">
      {status === 'Live' ? <span className="size-1.5 animate-pulse rounded-full bg-current" /> : null}
      {status}
    </Badge>
  );
}

interface CycleCardProps {
  cycle: LiveCycle;
  onEdit: () => void;
  onStop: () => void;
  /** Resumes a cycle the runtime paused; `resuming` while that call is on its way. */
  onResume: () => void;
  resuming: boolean;
}

/** One live cycle: market, status, live price, prices, money, progress, Edit and Stop; Resume when halted. */
export function CycleCard({ cycle, onEdit, onStop, onResume, resuming }: CycleCardProps) {
  const pair = formatPair(cycle.pair);
  const profit = Number(cycle.profit);
  const holding = cycle.last_bought_price !== null;
  return (
    <article
      aria-label={`${pair} cycle`}
      className={clsx(
        'flex flex-col rounded-xl border bg-surface p-4 shadow-card',
        cycle.status === 'Live' ? 'border-up/40 ring-1 ring-up/15' : 'border-line',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="truncate text-base font-bold text-fg">{pair}</h3>
          <p className="mt-1 flex flex-wrap items-center gap-1.5">
            <Badge tone="primary">{cycle.category}</Badge>
            {cycle.category === 'Future' ? <Badge tone="neutral">{cycle.leverage}x</Badge> : null}
          </p>
        </div>
        <div className="shrink-0 text-right">
          <CycleStatus status={cycle.status} />
          <p className="mt-1 text-sm font-semibold text-fg tabular-nums" data-testid="cycle-live-price">
            {formatPrice(Number(cycle.liveprice))}
          </p>
        </div>
      </div>
      <Sparkline values={cycle.sparklineData ?? []} className="mt-3 h-10" label={`${pair} recent prices`} />
      <dl className="mt-3 grid grid-cols-3 gap-x-3 gap-y-2.5">
        <Figure label="Buy price" value={formatPrice(Number(cycle.buy_price))} />
        <Figure label="Sell price" value={formatPrice(Number(cycle.sell_price))} />
        <Figure
          label="Stop loss"
          value={cycle.stop_loss === null ? 'Not set' : formatPrice(Number(cycle.stop_loss))}
        />
        <Figure label="Investment" value={formatUsd(cycle.investment)} />
        <Figure label="Profit" value={formatSignedUsd(profit)} tone={signTone(profit)} />
        <Figure label="Runtime" value={`${Number(cycle.runtime).toFixed(2)} d`} />
      </dl>
      <p className="mt-3 text-xs text-muted">
        {holding
          ? `Holding, bought at ${formatPrice(Number(cycle.last_bought_price))}; sells at the sell price.`
          : 'Waiting to buy at the buy price.'}
      </p>
      <div className="mt-3">
        <CycleProgress cycle={cycle} />
      </div>
      {cycle.haltReason ? (
        <div role="note" className="mt-3 rounded-lg border border-warn/30 bg-warn/10 p-2.5 text-xs text-fg">
          <p className="flex items-start gap-2">
            <AlertIcon className="mt-px size-4 shrink-0 text-warn" />
            <span>{cycle.haltReason}</span>
          </p>
          <Button
            variant="outline"
            size="sm"
            className="mt-2 w-full"
            loading={resuming}
            onClick={onResume}
            aria-label={`Resume ${pair} cycle`}
          >
            Resume trading
          </Button>
        </div>
      ) : null}
      <div className="mt-auto flex gap-2 pt-4">
        <Button
          variant="outline"
          size="sm"
          className="flex-1"
          onClick={onEdit}
          aria-label={`Edit ${pair} cycle`}
        >
          Edit
        </Button>
        <Button
          variant="danger"
          size="sm"
          className="flex-1"
          onClick={onStop}
          aria-label={`Stop ${pair} cycle`}
        >
          Stop
        </Button>
      </div>
    </article>
  );
}
