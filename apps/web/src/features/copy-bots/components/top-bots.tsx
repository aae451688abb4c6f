import { SYMBOLS, type TopBot } from '@gridbot/shared';
import { clsx } from 'clsx';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonClasses } from '../../../components/ui/button';
import { cardGridClass } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CopyIcon, CrownIcon } from '../../../components/ui/icons';
import { CategoryOptions } from '../../../components/ui/market-fields';
import { PageHeader } from '../../../components/ui/page-header';
import { SelectField } from '../../../components/ui/select-field';
import { Skeleton } from '../../../components/ui/skeleton';
import { Sparkline } from '../../../components/ui/sparkline';
import { formatPair } from '../../../lib/format';
import { type TopBotFilters, useTopBots } from '../api/copy-bots';
import { kindLabel, shapeText } from './bot-kind';
import { CopyBotModal } from './copy-bot-modal';
import { useStableOrder } from './stable-order';

const medal = ['bg-amber-400 text-slate-950', 'bg-slate-300 text-slate-900', 'bg-orange-400 text-slate-950'];

function TopBotCard({ bot, rank, onOpen }: { bot: TopBot; rank: number; onOpen: () => void }) {
  // A tiny loss rounds to 0.00, shown without a minus sign.
  const roi = Math.abs(Number(bot.roi)) < 0.005 ? 0 : Number(bot.roi);
  const kind = kindLabel(bot);
  const pnl7d = Math.abs(Number(bot.pnl7dPct)) < 0.005 ? 0 : Number(bot.pnl7dPct);
  // A range grid keeps no drawdown: shown as not known, never as 0.
  const drawdown = bot.maxDrawdownPct === null ? null : Math.abs(Number(bot.maxDrawdownPct));
  return (
    // A stretched button: the pair names it (its visible text is part of its name, WCAG 2.5.3) and its ::after
    // covers the card, so the whole card still opens the bot.
    <div className="group relative flex h-full w-full flex-col rounded-xl border border-line bg-surface p-4 text-left shadow-card transition-[border-color,transform] duration-150 hover:-translate-y-0.5 hover:border-primary/50 has-[button:focus-visible]:outline-2 has-[button:focus-visible]:outline-offset-2 has-[button:focus-visible]:outline-ring">
      <div className="flex items-start justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          <span
            className={clsx(
              'flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold',
              medal[rank - 1] ?? 'bg-surface-2 text-muted',
            )}
          >
            {rank}
          </span>
          <div className="min-w-0">
            <p className="truncate font-bold text-fg">
              <button
                type="button"
                onClick={onOpen}
                aria-label={`Rank ${rank}: ${formatPair(bot.name)} ${kind}, ROI ${roi.toFixed(2)}%`}
                className="text-left outline-none after:absolute after:inset-0 after:rounded-xl"
              >
                {formatPair(bot.name)}
              </button>
            </p>
            <p className="mt-0.5 flex flex-wrap gap-1.5">
              <Badge tone="primary">{bot.category}</Badge>
              <Badge tone="neutral">{kind}</Badge>
              {bot.demo ? (
                <Badge tone="warn" title="Sample data of the demo install, not a member's bot">
                  Demo
                </Badge>
              ) : null}
            </p>
          </div>
        </div>
        <div className="text-right">
          <p className="text-xs text-muted">ROI</p>
          <p className={clsx('text-lg font-bold tabular-nums', roi >= 0 ? 'text-up' : 'text-down')}>
            {roi >= 0 ? '+' : ''}
            {roi.toFixed(2)}%
          </p>
        </div>
      </div>
      <Sparkline values={bot.sparklineData ?? []} className="mt-3 h-10" />
      <p className="mt-3 flex min-w-0 items-baseline gap-1.5 text-sm">
        <span className="shrink-0 text-xs text-muted">{bot.botType === 'range' ? 'Range' : 'Strategy'}</span>
        {/* A grid's range wraps on a narrow card rather than losing its spacing to an ellipsis. */}
        <span
          className={clsx('font-semibold text-fg', bot.botType === 'range' ? 'min-w-0' : 'truncate')}
          data-testid="top-bot-shape"
        >
          {shapeText(bot)}
        </span>
      </p>
      <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-xs text-muted" title="An estimate from the ROI so far">
            APY (est.)
          </dt>
          <dd className="font-semibold text-fg tabular-nums">{Number(bot.apy).toFixed(2)}%</dd>
        </div>
        <div>
          <dt className="text-xs text-muted">Runtime</dt>
          <dd className="font-semibold text-fg tabular-nums">{Number(bot.runtime).toFixed(2)} days</dd>
        </div>
        <div>
          <dt
            className="text-xs text-muted"
            title="Profit booked in the last 7 days, in percent of the investment"
          >
            7-day PnL
          </dt>
          <dd
            data-testid="top-bot-pnl7d"
            className={clsx('font-semibold tabular-nums', pnl7d >= 0 ? 'text-up' : 'text-down')}
          >
            {pnl7d >= 0 ? '+' : ''}
            {pnl7d.toFixed(2)}%
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted" title="The deepest fall of the bot's value from its peak">
            Max drawdown
          </dt>
          <dd data-testid="top-bot-drawdown" className="font-semibold text-fg tabular-nums">
            {drawdown === null ? '—' : `${drawdown > 0 ? '-' : ''}${drawdown.toFixed(2)}%`}
          </dd>
        </div>
      </dl>
      <span className="mt-auto flex items-center justify-between gap-2 pt-4 text-sm">
        <span className="inline-flex items-center gap-1.5 font-semibold text-primary group-hover:underline">
          <CopyIcon className="size-4" /> Copy this bot
        </span>
        <span data-testid="top-bot-copies" className="text-xs text-muted tabular-nums">
          Copied {bot.copyCount} {bot.copyCount === 1 ? 'time' : 'times'}
        </span>
      </span>
    </div>
  );
}

const RUNTIME_CHOICES = [
  { value: '', label: 'At least 1 day' },
  { value: '3', label: 'At least 3 days' },
  { value: '7', label: 'At least 7 days' },
  { value: '30', label: 'At least 30 days' },
];

function Filters({ value, onChange }: { value: TopBotFilters; onChange: (next: TopBotFilters) => void }) {
  return (
    <search className="mb-4 grid gap-3 sm:grid-cols-3" aria-label="Filter top bots">
      <SelectField
        label="Pair"
        value={value.pair}
        onChange={(event) => onChange({ ...value, pair: event.target.value })}
      >
        <option value="">All pairs</option>
        {SYMBOLS.map((pair) => (
          <option key={pair} value={pair}>
            {formatPair(pair)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Category"
        value={value.category}
        onChange={(event) =>
          onChange({ ...value, category: event.target.value as TopBotFilters['category'] })
        }
      >
        <CategoryOptions placeholder="All categories" />
      </SelectField>
      <SelectField
        label="Runtime"
        value={value.minDays}
        onChange={(event) => onChange({ ...value, minDays: event.target.value })}
      >
        {RUNTIME_CHOICES.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </SelectField>
    </search>
  );
}

/**
 * Copy BOTs (docs/product.md §5): the 20 running bots of other users with the highest positive ROI after at least a
 * day, anonymous, with pair, category and runtime filters.
 */
export function TopBots({ renderBacktest }: { renderBacktest?: (bot: TopBot) => ReactNode } = {}) {
  const [chosen, setChosen] = useState<TopBot | null>(null);
  const [filters, setFilters] = useState<TopBotFilters>({ pair: '', category: '', minDays: '' });
  const top = useTopBots(filters);
  const bots = useStableOrder(top.data, (bot) => bot.key, JSON.stringify(filters));
  return (
    <>
      <PageHeader
        title="Top Running Bots"
        description="Other users' best running bots by ROI after at least a day, anonymous, ranked once an hour and kept in place while you look. Copy a strategy and run it with your own amount."
      />
      <Filters value={filters} onChange={setFilters} />
      {top.isPending ? (
        <div className={cardGridClass}>
          {Array.from({ length: 6 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
            <Skeleton key={i} className="h-56 rounded-xl" />
          ))}
        </div>
      ) : top.isError ? (
        <EmptyState
          icon={<CrownIcon />}
          title="Could not load the top bots"
          description="Check your connection and try again."
          action={<Button onClick={() => void top.refetch()}>Retry</Button>}
        />
      ) : !bots || bots.length === 0 ? (
        <EmptyState
          icon={<CrownIcon />}
          title="No bots to show yet"
          description="Bots that have run at least a day with a positive ROI appear here to copy."
          action={
            <Link to="/startbot" className={buttonClasses('primary')}>
              Start BOT
            </Link>
          }
        />
      ) : (
        <ol className={cardGridClass} aria-label="Top running bots">
          {bots.map((bot, i) => (
            // Keyed by the bot's stable key (the copy token is new on every read), so a card and its click stay
            // with the bot it shows.
            <li key={bot.key} className="h-full">
              <TopBotCard bot={bot} rank={i + 1} onOpen={() => setChosen(bot)} />
            </li>
          ))}
        </ol>
      )}
      <CopyBotModal bot={chosen} onClose={() => setChosen(null)} renderBacktest={renderBacktest} />
    </>
  );
}
