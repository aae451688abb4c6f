import { strategyMessages as m, type StoredStrategy, type StrategyKind } from '@gridbot/shared';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { AlertIcon, ClockIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { Skeleton } from '../../../components/ui/skeleton';
import { startBotPath } from '../../../lib/start-bot-link';
import { toast } from '../../../lib/toast';
import { editScreenPath, myStrategiesPath } from '../api/strategy-api';
import { useCopySystemStrategy, useEditStrategy, useStrategy } from '../api/strategy-queries';
import {
  fromStored,
  type StrategyFormValues,
  toMultigridPayload,
  toScalpingPayload,
} from '../utils/form-values';
import { type RenderStrategyBacktest, StrategyForm } from './strategy-form';

const titles: Record<StrategyKind, string> = {
  multigrid: 'Edit Grid Bot Strategy',
  scalping: 'Edit Scalping Strategy',
};

function Note({ children, tone = 'warn' }: { children: React.ReactNode; tone?: 'warn' | 'primary' }) {
  return (
    <div
      role="note"
      className={
        tone === 'warn'
          ? 'flex gap-3 rounded-xl border border-warn/30 bg-warn/10 px-4 py-3 text-sm text-fg'
          : 'flex gap-3 rounded-xl border border-primary/30 bg-primary-soft px-4 py-3 text-sm text-fg'
      }
    >
      <ClockIcon
        className={
          tone === 'warn' ? 'mt-0.5 size-4.5 shrink-0 text-warn' : 'mt-0.5 size-4.5 shrink-0 text-primary'
        }
      />
      <div>{children}</div>
    </div>
  );
}

/** A system strategy is read-only: it can be copied into the user's own strategies and edited there. */
function SystemStrategyNote({ kind, strategy }: { kind: StrategyKind; strategy: StoredStrategy }) {
  const navigate = useNavigate();
  const copy = useCopySystemStrategy(kind);
  const onCopy = () =>
    copy.mutateAsync(strategy.strategy_name).then(
      (res) => {
        toast.success(res.message);
        navigate(editScreenPath(kind, res.strategy.strategy_name));
      },
      () => toast.error(m.saveFailed),
    );
  return (
    <Note tone="primary">
      <p>{m.systemReadOnly}</p>
      <Button size="sm" className="mt-2" loading={copy.isPending} onClick={onCopy}>
        Copy to My Strategies
      </Button>
    </Note>
  );
}

function LoadingForm() {
  return (
    <Card role="status" className="space-y-4 p-5" aria-busy="true" aria-label="Loading strategy">
      <Skeleton className="h-11 w-full max-w-md" />
      <Skeleton className="h-64 w-full" />
    </Card>
  );
}

/** docs/spec/01-core-screens.md Edit Grid Bot Strategy / Edit Scalping Strategy: name and grid count read-only (§8 messages). */
export function EditStrategy({
  kind,
  name,
  renderBacktest,
}: {
  kind: StrategyKind;
  name: string;
  renderBacktest?: RenderStrategyBacktest;
}) {
  const navigate = useNavigate();
  const query = useStrategy(kind, name);
  const edit = useEditStrategy(kind);
  const back = () => navigate(myStrategiesPath(kind));

  useEffect(() => {
    if (query.isError) toast.error(m.loadFailed);
  }, [query.isError]);

  const save = async (values: StrategyFormValues) => {
    try {
      await edit.mutateAsync(kind === 'multigrid' ? toMultigridPayload(values) : toScalpingPayload(values));
      toast.success(m.updated);
      back();
    } catch {
      toast.error(m.updateFailed);
    }
    return null;
  };

  const data = query.data;
  return (
    <>
      <PageHeader
        title={titles[kind]}
        description={data ? data.strategy.strategy_name : undefined}
        actions={
          data ? (
            // The saved strategy: a Scalping bot starts only from its strategy (Start BOT's own select offers
            // Scalping Grid as 'coming soon...').
            <Link
              to={startBotPath({
                botType: kind === 'scalping' ? 'Scalping' : 'Multigrid',
                strategy: data.strategy.strategy_name,
              })}
              className={buttonClasses('primary')}
            >
              Start a bot with it
            </Link>
          ) : undefined
        }
      />
      {query.isPending ? <LoadingForm /> : null}
      {query.isError ? (
        <EmptyState
          icon={<AlertIcon />}
          title={m.loadFailed}
          action={
            <Button variant="outline" onClick={back}>
              Back to My Strategies
            </Button>
          }
        />
      ) : null}
      {data ? (
        <StrategyForm
          key={data.strategy._id}
          kind={kind}
          mode="edit"
          readOnly={data.strategy.system}
          defaultValues={fromStored(data.strategy)}
          onSave={save}
          onCancel={back}
          renderBacktest={renderBacktest}
          notice={
            data.strategy.system ? (
              <SystemStrategyNote kind={kind} strategy={data.strategy} />
            ) : data.inUse ? (
              <Note>{m.inUseEditNote}</Note>
            ) : undefined
          }
        />
      ) : null}
    </>
  );
}
