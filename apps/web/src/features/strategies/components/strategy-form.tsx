import {
  strategyMessages as m,
  multigridStrategySchema,
  STRATEGY_NAME_MAX,
  type StrategyKind,
  type StrategyParams,
  scalpingStrategySchema,
} from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { clsx } from 'clsx';
import { type ReactNode, useEffect, useMemo } from 'react';
import { type Resolver, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { NumberInput } from '../../../components/ui/number-input';
import {
  autoFillRows,
  blankRow,
  evenShares,
  MAX_GRIDS,
  parseGridCount,
  resizeRows,
  type StrategyFormValues,
} from '../utils/form-values';
import { applySweepValues, type SweepValues, storedFromForm } from '../utils/stored-from-form';
import { StrategyFeeWarning } from './fee-warning';
import { GridTable } from './grid-table';
import { AllotmentTotal, TableErrors } from './grid-table-status';
import { LadderPreview } from './ladder-preview';

const resolvers: Record<StrategyKind, Resolver<StrategyFormValues>> = {
  // The schemas accept numbers or numeric strings; the form holds strings, so its values fit their input.
  multigrid: zodResolver(multigridStrategySchema) as unknown as Resolver<StrategyFormValues>,
  scalping: zodResolver(scalpingStrategySchema) as unknown as Resolver<StrategyFormValues>,
};

const gridsMessage: Record<StrategyKind, string> = { multigrid: m.gridsMultigrid, scalping: m.gridsScalping };

export interface StrategyFormProps {
  kind: StrategyKind;
  mode: 'create' | 'edit';
  defaultValues: StrategyFormValues;
  /** Saves; answers a message to show under the name (e.g. a duplicate name), or nothing. */
  onSave: (values: StrategyFormValues) => Promise<string | null | undefined>;
  onCancel?: () => void;
  /** Shown above the table (e.g. the in-use note of the edit page). */
  notice?: ReactNode;
  /** A system strategy: shown, not changed (no Auto Fill, Clear or Save). */
  readOnly?: boolean;
  /** The backtest of the table as it stands (saved or not), composed by the route. */
  renderBacktest?: RenderStrategyBacktest;
}

/** The table as a stored strategy (null while invalid), and a way to write a sweep's values into it. */
export type RenderStrategyBacktest = (
  strategy: StrategyParams | null,
  apply: ((values: SweepValues) => void) | null,
) => ReactNode;

/**
 * Create and edit form of both strategy kinds (docs/spec/01-core-screens.md §2, §5): name, grid count, the per-grid table with
 * Auto Fill and Clear, the live ladder preview beside it and, for Scalping, the one take-profit field.
 * Validation is the shared schema the API uses, so the messages are the same words.
 */
export function StrategyForm({
  kind,
  mode,
  defaultValues,
  onSave,
  onCancel,
  notice,
  readOnly = false,
  renderBacktest,
}: StrategyFormProps) {
  const max = MAX_GRIDS[kind];
  const editing = mode === 'edit';
  const form = useForm<StrategyFormValues>({ resolver: resolvers[kind], defaultValues });
  const { register, control, formState, getValues } = form;
  const { errors, isSubmitting, isSubmitted } = formState;
  const { fields, replace } = useFieldArray({ control, name: 'tableData' });
  const gridText = useWatch({ control, name: 'noOfGrids' });
  const gridCount = parseGridCount(gridText ?? '', max);

  // The table follows the grid count as it is typed; an invalid count leaves the table as it is.
  useEffect(() => {
    if (gridCount !== null && gridCount !== getValues('tableData').length) {
      replace(resizeRows(getValues('tableData'), gridCount));
    }
  }, [gridCount, getValues, replace]);

  const revalidate = () => {
    if (isSubmitted) void form.trigger();
  };
  const autoFill = () => {
    const n = gridCount ?? fields.length;
    if (n === 0) {
      form.setError('noOfGrids', { message: gridsMessage[kind] });
      return;
    }
    replace(autoFillRows(n));
    if (kind === 'scalping' && !getValues('takeProfitPercentage').trim())
      form.setValue('takeProfitPercentage', '3');
    revalidate();
  };
  const clear = () => {
    replace(Array.from({ length: fields.length }, blankRow));
    if (kind === 'scalping') form.setValue('takeProfitPercentage', '');
    revalidate();
  };

  const onSubmit = form.handleSubmit(async () => {
    const nameError = await onSave(getValues());
    if (nameError) form.setError('strategyName', { type: 'server', message: nameError });
  });

  // The backtest follows the table as it is typed.
  const watched = useWatch({ control }) as StrategyFormValues;
  const watchedKey = JSON.stringify(watched);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the values' text, not the object.
  const stored = useMemo(() => storedFromForm(kind, watched), [kind, watchedKey]);
  const apply = (values: SweepValues) => {
    const next = applySweepValues(kind, getValues(), values);
    form.setValue('tableData', next.tableData, { shouldDirty: true });
    if (kind === 'scalping')
      form.setValue('takeProfitPercentage', next.takeProfitPercentage, { shouldDirty: true });
    revalidate();
  };

  const typedBadCount = !editing && (gridText ?? '').trim() !== '' && gridCount === null;
  const countError = errors.noOfGrids?.message ?? (typedBadCount ? gridsMessage[kind] : undefined);
  const share = fields.length > 0 ? (evenShares(fields.length)[0] ?? '') : '';

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <Card className="grid gap-4 p-4 sm:grid-cols-2 sm:p-5">
        <Input
          label="Strategy Name"
          placeholder="e.g. BTC steady ladder"
          maxLength={STRATEGY_NAME_MAX}
          readOnly={editing}
          className={clsx(editing && 'bg-surface-2 text-muted')}
          error={errors.strategyName?.message}
          {...register('strategyName')}
        />
        <NumberInput
          whole
          label="Number of Grids"
          placeholder={`1 to ${max}`}
          readOnly={editing}
          className={clsx(editing && 'bg-surface-2 text-muted')}
          error={countError}
          hint={editing ? undefined : `Between 1 and ${max}.`}
          {...register('noOfGrids')}
        />
      </Card>

      {notice}

      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <Card className="min-w-0 p-4 sm:p-5">
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <div>
              <h2 className="text-base font-semibold text-fg">Grids</h2>
              <p className="text-xs text-muted">
                Grid 1 buys at market price; each next grid buys on a further drop.
              </p>
            </div>
            <div className={clsx('flex gap-2', readOnly && 'hidden')}>
              <Button variant="outline" size="sm" onClick={autoFill}>
                Auto Fill
              </Button>
              <Button variant="ghost" size="sm" onClick={clear}>
                Clear
              </Button>
            </div>
          </div>
          {fields.length === 0 ? (
            <p className="rounded-lg border border-dashed border-line px-4 py-10 text-center text-sm text-muted">
              Enter the number of grids (1 to {max}) to build the table.
            </p>
          ) : (
            <GridTable
              kind={kind}
              fields={fields}
              register={register}
              errors={errors}
              allottedPlaceholder={share}
              disabled={readOnly}
            />
          )}
          <AllotmentTotal control={control} />
          <TableErrors errors={errors} kind={kind} />
          <StrategyFeeWarning control={control} kind={kind} />
          {kind === 'scalping' ? (
            <div className="mt-4 max-w-xs">
              <NumberInput
                label="Take Profit (%)"
                placeholder="3"
                disabled={readOnly}
                error={errors.takeProfitPercentage?.message}
                hint={
                  editing
                    ? 'Custom percentages can be set for every grid and the take-profit.'
                    : 'Sells every open grid once the price is this far above their average entry.'
                }
                {...register('takeProfitPercentage')}
              />
            </div>
          ) : null}
        </Card>
        <LadderPreview
          control={control}
          kind={kind}
          className="order-first xl:sticky xl:top-20 xl:order-none"
        />
      </div>

      {renderBacktest?.(stored, readOnly ? null : apply)}

      <div className="flex flex-wrap justify-end gap-2">
        {onCancel ? (
          <Button variant="outline" size="lg" onClick={onCancel}>
            {readOnly ? 'Back' : 'Cancel'}
          </Button>
        ) : null}
        {readOnly ? null : (
          <Button type="submit" size="lg" loading={isSubmitting}>
            {isSubmitting ? 'Saving...' : editing ? 'Save Changes' : 'Save Strategy'}
          </Button>
        )}
      </div>
    </form>
  );
}
