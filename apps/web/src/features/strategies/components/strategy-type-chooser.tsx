import { clsx } from 'clsx';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { CycleIcon, GridIcon, LayersIcon, ZapIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';

interface Choice {
  title: string;
  line: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Absent: not available yet. */
  to?: string;
  badge?: string;
}

/**
 * docs/spec/01-core-screens.md strategy type chooser. Grid (Multigrid) and Scalping open their create screens; Arbitrage and
 * Indicator bots are listed as Coming Soon and not active.
 */
const choices: Choice[] = [
  {
    title: 'Grid Strategy',
    line: 'Multigrid: up to 50 grids, each with its own trailing buy and take-profit.',
    icon: GridIcon,
    to: '/botcreate',
    badge: 'PRO',
  },
  {
    title: 'Scalping',
    line: 'Up to 10 grids and one take-profit on the average entry of everything bought.',
    icon: ZapIcon,
    to: '/createscalpingstrategy',
  },
  { title: 'Arbitrage', line: 'Price differences between markets.', icon: LayersIcon },
  { title: 'Indicator bots', line: 'Entries and exits from technical indicators.', icon: CycleIcon },
];

function ChoiceBody({ choice }: { choice: Choice }) {
  const Icon = choice.icon;
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <span className="flex size-11 items-center justify-center rounded-xl bg-primary-soft text-primary">
          <Icon className="size-6" />
        </span>
        {choice.to ? (
          choice.badge ? (
            <Badge tone="pro">{choice.badge}</Badge>
          ) : null
        ) : (
          <Badge tone="neutral">Coming Soon</Badge>
        )}
      </div>
      <h2 className="mt-4 text-lg font-semibold text-fg">{choice.title}</h2>
      <p className="mt-1 text-sm text-muted">{choice.line}</p>
    </>
  );
}

export function StrategyTypeChooser() {
  const card = 'block rounded-xl border border-line bg-surface p-5 shadow-card';
  return (
    <>
      <PageHeader title="Create Strategy" description="Choose the kind of strategy to design." />
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {choices.map((choice) => (
          <li key={choice.title}>
            {choice.to ? (
              <Link
                to={choice.to}
                className={clsx(
                  card,
                  'h-full transition-[border-color,transform] duration-150 hover:-translate-y-0.5 hover:border-primary focus-visible:outline-2 focus-visible:outline-ring',
                )}
              >
                <ChoiceBody choice={choice} />
              </Link>
            ) : (
              <div aria-disabled="true" className={clsx(card, 'h-full opacity-60')}>
                <ChoiceBody choice={choice} />
              </div>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
