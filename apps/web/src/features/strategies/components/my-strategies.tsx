import { strategyMessages as m, type StoredStrategy, type StrategyKind } from '@gridbot/shared';
import { type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { cardGridClass } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { AlertIcon, ListIcon } from '../../../components/ui/icons';
import { Modal } from '../../../components/ui/modal';
import { PageHeader } from '../../../components/ui/page-header';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tabs } from '../../../components/ui/tabs';
import { isApiError } from '../../../lib/api-client';
import { startBotPath } from '../../../lib/start-bot-link';
import { toast } from '../../../lib/toast';
import { editScreenPath, strategyPaths } from '../api/strategy-api';
import {
  useCopySystemStrategy,
  useDeleteStrategy,
  useOwnStrategies,
  useSystemStrategies,
} from '../api/strategy-queries';
import { DeleteStrategyModal } from './delete-strategy-modal';
import { StrategyCard } from './strategy-card';

const tabs = [
  { value: 'multigrid', label: 'Multigrid' },
  { value: 'scalping', label: 'Scalping' },
] as const;

function LoadingCards() {
  return (
    <div role="status" className={cardGridClass} aria-busy="true" aria-label="Loading strategies">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-40 rounded-xl" />
      ))}
    </div>
  );
}

interface StrategyCardsProps {
  kind: StrategyKind;
  strategies: StoredStrategy[];
  actions: (strategy: StoredStrategy) => ReactNode;
}

function StrategyCards({ kind, strategies, actions }: StrategyCardsProps) {
  return (
    <div className={cardGridClass}>
      {strategies.map((strategy) => (
        <StrategyCard key={strategy._id} kind={kind} strategy={strategy} actions={actions(strategy)} />
      ))}
    </div>
  );
}

/** Edit (own) or View (system): the strategy's edit screen, named for the strategy. */
function OpenStrategyLink({
  kind,
  name,
  verb,
  variant,
}: {
  kind: StrategyKind;
  name: string;
  verb: 'Edit' | 'View';
  variant: 'outline' | 'ghost';
}) {
  return (
    <Link
      to={editScreenPath(kind, name)}
      className={buttonClasses(variant, 'sm', 'flex-1')}
      aria-label={`${verb} ${name}`}
    >
      {verb}
    </Link>
  );
}

/** Start BOT with this strategy chosen: the only way to a Scalping bot, whose type the free select offers as 'coming soon...'. */
function StartWithLink({ kind, name }: { kind: StrategyKind; name: string }) {
  return (
    <Link
      to={startBotPath({ botType: kind === 'scalping' ? 'Scalping' : 'Multigrid', strategy: name })}
      className={buttonClasses('primary', 'sm', 'flex-1')}
      aria-label={`Start a bot with ${name}`}
    >
      Start
    </Link>
  );
}

/** docs/spec/01-core-screens.md §8: the in-use message as is, anything else prefixed. */
function deleteFailure(error: unknown): string {
  const message = isApiError(error) ? error.message : String(error);
  return message === m.inUse ? m.inUse : m.deleteFailed(message);
}

function OwnStrategies({
  kind,
  onBacktest,
}: {
  kind: StrategyKind;
  onBacktest?: (s: StoredStrategy) => void;
}) {
  const list = useOwnStrategies(kind);
  const remove = useDeleteStrategy(kind);
  const [doomed, setDoomed] = useState<string | null>(null);

  const confirmDelete = () => {
    if (!doomed) return;
    remove.mutateAsync(doomed).then(
      () => {
        setDoomed(null);
        toast.success(m.deleted);
        // docs/spec/01-core-screens.md: deletion ends with a reload; the list is fetched again (mutation invalidates it).
        void list.refetch();
      },
      (error: unknown) => {
        setDoomed(null);
        toast.error(deleteFailure(error));
      },
    );
  };

  if (list.isPending) return <LoadingCards />;
  if (list.isError) return <EmptyState icon={<AlertIcon />} title={m.listFailed} />;
  if (list.data.length === 0) {
    return (
      <EmptyState
        icon={<ListIcon />}
        title={m.emptyTitle}
        description={m.emptyLine}
        action={
          <Link to={strategyPaths[kind].createScreen} className={buttonClasses('primary')}>
            Create Strategy
          </Link>
        }
      />
    );
  }
  return (
    <>
      <StrategyCards
        kind={kind}
        strategies={list.data}
        actions={(strategy) => (
          <>
            <StartWithLink kind={kind} name={strategy.strategy_name} />
            <OpenStrategyLink kind={kind} name={strategy.strategy_name} verb="Edit" variant="outline" />
            {onBacktest ? (
              <Button
                variant="outline"
                size="sm"
                className="flex-1"
                aria-label={`Backtest ${strategy.strategy_name}`}
                onClick={() => onBacktest(strategy)}
              >
                Backtest
              </Button>
            ) : null}
            <Button
              variant="ghost"
              size="sm"
              className="flex-1 text-down! hover:bg-down/10"
              aria-label={`Delete ${strategy.strategy_name}`}
              onClick={() => setDoomed(strategy.strategy_name)}
            >
              Delete
            </Button>
          </>
        )}
      />
      <DeleteStrategyModal
        name={doomed}
        busy={remove.isPending}
        onCancel={() => setDoomed(null)}
        onConfirm={confirmDelete}
      />
    </>
  );
}

function SystemStrategies({
  kind,
  onBacktest,
}: {
  kind: StrategyKind;
  onBacktest?: (s: StoredStrategy) => void;
}) {
  const list = useSystemStrategies(kind);
  const copy = useCopySystemStrategy(kind);
  const copyOne = (strategy: StoredStrategy) =>
    copy.mutateAsync(strategy.strategy_name).then(
      (res) => toast.success(`${m.copied} (${res.strategy.strategy_name})`),
      (error: unknown) => toast.error(isApiError(error) ? error.message : m.saveFailed),
    );
  if (!list.data || list.data.length === 0) return null;
  return (
    <section aria-labelledby={`system-${kind}`} className="mt-10">
      <h2 id={`system-${kind}`} className="text-base font-semibold text-fg">
        System strategies
      </h2>
      <p className="mt-0.5 mb-4 text-sm text-muted">
        Ready-made and read-only. Start a bot with one directly, or copy it into your strategies to change it.
      </p>
      <StrategyCards
        kind={kind}
        strategies={list.data}
        actions={(strategy) => (
          <>
            <StartWithLink kind={kind} name={strategy.strategy_name} />
            <OpenStrategyLink kind={kind} name={strategy.strategy_name} verb="View" variant="ghost" />
            {onBacktest ? (
              <Button
                variant="outline"
                size="sm"
                className="flex-1"
                aria-label={`Backtest ${strategy.strategy_name}`}
                onClick={() => onBacktest(strategy)}
              >
                Backtest
              </Button>
            ) : null}
            <Button
              variant="outline"
              size="sm"
              className="flex-1"
              aria-label={`Copy ${strategy.strategy_name}`}
              disabled={copy.isPending}
              onClick={() => copyOne(strategy)}
            >
              Copy
            </Button>
          </>
        )}
      />
    </section>
  );
}

/** docs/spec/01-core-screens.md My Strategies: tabs Multigrid and Scalping, the user's cards, then the system strategies. */
export function MyStrategies({
  renderBacktest,
}: {
  /** A strategy's backtest, composed by the route; without it the cards have no Backtest action. */
  renderBacktest?: (strategy: StoredStrategy) => ReactNode;
} = {}) {
  const [params, setParams] = useSearchParams();
  const [backtested, setBacktested] = useState<StoredStrategy | null>(null);
  const onBacktest = renderBacktest ? setBacktested : undefined;
  const kind: StrategyKind = params.get('tab') === 'scalping' ? 'scalping' : 'multigrid';
  return (
    <>
      <PageHeader
        title="My Strategies"
        actions={
          <Link to="/create-strategy" className={buttonClasses('primary')}>
            Create Strategy
          </Link>
        }
      />
      <Tabs
        label="Strategy type"
        items={tabs}
        value={kind}
        onChange={(next) => setParams(next === 'scalping' ? { tab: 'scalping' } : {}, { replace: true })}
      >
        <OwnStrategies key={kind} kind={kind} onBacktest={onBacktest} />
        <SystemStrategies kind={kind} onBacktest={onBacktest} />
      </Tabs>
      <Modal
        open={backtested !== null}
        onClose={() => setBacktested(null)}
        title={backtested ? `Backtest ${backtested.strategy_name}` : 'Backtest'}
        size="lg"
      >
        {backtested && renderBacktest ? renderBacktest(backtested) : null}
      </Modal>
    </>
  );
}
