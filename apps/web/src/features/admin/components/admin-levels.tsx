import { adminLevelsInputSchema, platformMessages as m } from '@gridbot/shared';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { CloseIcon } from '../../../components/ui/icons';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useAdminLevels, useSaveLevels } from '../api/admin-queries';

/** The referral level table (docs/product.md §5): level n earns its percentage of each purchase below it. */
export function AdminLevels() {
  const levels = useAdminLevels();
  const save = useSaveLevels();
  const [rows, setRows] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (levels.data) setRows(levels.data.map((r) => String(r.rewardPercentage)));
  }, [levels.data]);

  if (levels.isPending) return <p className="py-8 text-center text-sm text-muted">Loading...</p>;
  if (levels.isError) {
    return (
      <div role="alert" className="py-8 text-center text-sm text-muted">
        {levels.error.message}
        <div>
          <Button variant="outline" size="sm" className="mt-3" onClick={() => void levels.refetch()}>
            Retry
          </Button>
        </div>
      </div>
    );
  }

  const submit = async () => {
    const parsed = adminLevelsInputSchema.safeParse({
      rewards: rows.map((value, i) => ({
        level: i + 1,
        rewardPercentage: value.trim() === '' ? Number.NaN : Number(value),
      })),
    });
    if (!parsed.success) {
      setError(m.levelsInvalid);
      return;
    }
    setError(null);
    try {
      const { message } = await save.mutateAsync(parsed.data);
      toast.success(message || m.levelsSaved);
    } catch (failure) {
      const message = errorMessage(failure, 'The level table could not be saved. Please try again.');
      setError(message);
      toast.error(message);
    }
  };

  return (
    <div className="max-w-md space-y-3">
      <ol className="space-y-2">
        {rows.map((value, i) => (
          // Levels are positions: the index is the identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: a level is its position in the table
          <li key={i} className="flex items-center gap-3">
            <label htmlFor={`level-${i}`} className="w-16 text-sm font-medium text-fg">
              Level {i + 1}
            </label>
            <div className="relative flex-1">
              <input
                id={`level-${i}`}
                inputMode="decimal"
                value={value}
                onChange={(event) => setRows(rows.map((v, j) => (j === i ? event.target.value : v)))}
                className="h-10 w-full rounded-lg border border-line bg-surface px-3 pr-8 text-sm text-fg focus:border-primary focus:ring-3 focus:ring-ring/40 focus:outline-none"
              />
              <span className="absolute inset-y-0 right-3 flex items-center text-sm text-muted">%</span>
            </div>
            <button
              type="button"
              aria-label={`Remove level ${i + 1}`}
              onClick={() => setRows(rows.filter((_, j) => j !== i))}
              className="rounded-md p-1.5 text-muted hover:bg-surface-2 hover:text-down"
            >
              <CloseIcon className="size-4" />
            </button>
          </li>
        ))}
      </ol>
      {error ? (
        <p role="alert" className="text-sm font-medium text-down">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => setRows([...rows, '0'])} disabled={rows.length >= 20}>
          Add level
        </Button>
        <Button onClick={() => void submit()} loading={save.isPending}>
          Save levels
        </Button>
      </div>
    </div>
  );
}
