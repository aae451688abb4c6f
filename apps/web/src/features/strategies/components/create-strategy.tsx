import { strategyMessages as m, type StrategyKind } from '@gridbot/shared';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header';
import { isApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { myStrategiesPath } from '../api/strategy-api';
import { useCreateStrategy } from '../api/strategy-queries';
import {
  emptyFormValues,
  type StrategyFormValues,
  toMultigridPayload,
  toScalpingPayload,
} from '../utils/form-values';
import { type RenderStrategyBacktest, StrategyForm } from './strategy-form';

const titles: Record<StrategyKind, { title: string; description: string }> = {
  multigrid: {
    title: 'Multigrid Strategy',
    description:
      'Create Grid Bot Strategy: one row per grid, each with its own buy and take-profit conditions.',
  },
  scalping: {
    title: 'Create Scalping Strategy',
    description: 'Buys on each drop and sells every open grid at one take-profit above their average entry.',
  },
};

/** docs/spec/01-core-screens.md Create Grid Bot Strategy and Create Scalping Strategy; saving goes to My Strategies (§8 messages). */
export function CreateStrategy({
  kind,
  renderBacktest,
}: {
  kind: StrategyKind;
  renderBacktest?: RenderStrategyBacktest;
}) {
  const navigate = useNavigate();
  const create = useCreateStrategy(kind);

  const save = async (values: StrategyFormValues) => {
    try {
      await create.mutateAsync(kind === 'multigrid' ? toMultigridPayload(values) : toScalpingPayload(values));
      toast.success(m.saved);
      navigate(myStrategiesPath(kind));
      return null;
    } catch (error) {
      if (isApiError(error) && error.message === m.duplicateName) {
        toast.error(m.duplicateNameHint);
        return m.duplicateNameHint;
      }
      toast.error(m.saveFailed);
      return null;
    }
  };

  return (
    <>
      <PageHeader title={titles[kind].title} description={titles[kind].description} />
      <StrategyForm
        kind={kind}
        mode="create"
        defaultValues={emptyFormValues(kind)}
        onSave={save}
        renderBacktest={renderBacktest}
      />
    </>
  );
}
