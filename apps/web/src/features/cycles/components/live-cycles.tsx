import { cycleMessages, isMissingCoinsHalt, type LiveCycle, type MissingLotsChoice } from '@gridbot/shared';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { cardGridClass } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { AlertIcon, CycleIcon } from '../../../components/ui/icons';
import { MissingLotsDialog } from '../../../components/ui/missing-lots-dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useLiveCycles, useResumeCycle, useStopCycle } from '../api/cycles';
import { failureToast } from '../lib/cycle-errors';
import { CycleCard } from './cycle-card';
import { EditCycleDialog } from './edit-cycle-dialog';
import { StopCycleDialog } from './stop-cycle-dialog';

function LoadingCards() {
  return (
    <div className={cardGridClass} role="status" aria-label="Loading live cycles">
      {[0, 1, 2].map((i) => (
        <div key={i} className="space-y-3 rounded-xl border border-line bg-surface p-4 shadow-card">
          <Skeleton className="h-5 w-1/3" />
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-2 w-full" />
        </div>
      ))}
    </div>
  );
}

/** A dialog's target: the id picks the freshest copy from the list, the snapshot covers a vanished one. */
interface Target {
  open: boolean;
  cycle: LiveCycle | null;
}
const closed: Target = { open: false, cycle: null };

/** docs/spec/02-bots-wallet-account.md Start Cycle: the Live Cycles list (every 10 s), with the Edit and Confirm Stop Cycle dialogs. */
export function LiveCycles() {
  const cycles = useLiveCycles();
  const stop = useStopCycle();
  const resume = useResumeCycle();
  const [editing, setEditing] = useState<Target>(closed);
  const [stopping, setStopping] = useState<Target>(closed);
  const [choosing, setChoosing] = useState<Target>(closed);
  const [pending, setPending] = useState<'sell' | 'stop' | null>(null);
  const list = cycles.data ?? [];
  const fresh = (target: Target) => list.find((c) => c.id === target.cycle?.id) ?? target.cycle;

  const onStop = (sell: boolean) => {
    const cycle = fresh(stopping);
    if (!cycle) return;
    setPending(sell ? 'sell' : 'stop');
    stop.mutate(
      { cycleId: cycle.id, sell },
      {
        onSuccess: (answer) => {
          if (answer.stopping) toast.info(answer.message, { id: 'cycle-stop' });
          else toast.success(sell ? cycleMessages.stoppedSold : cycleMessages.stopped, { id: 'cycle-stop' });
          setStopping((t) => ({ ...t, open: false }));
        },
        onError: (error) => {
          const { title, description } = sell
            ? failureToast(error, cycleMessages.stopSellFailed, cycleMessages.stopSellError)
            : failureToast(error, cycleMessages.stopFailed, cycleMessages.stopError);
          toast.error(title, { id: 'cycle-stop', description });
        },
        onSettled: () => setPending(null),
      },
    );
  };

  const send = (cycle: LiveCycle, missingLots?: MissingLotsChoice) =>
    resume.mutate(
      { cycleId: cycle.id, missingLots },
      {
        onSuccess: (answer) => {
          setChoosing(closed);
          if (answer.resuming) toast.info(answer.message, { id: 'cycle-resume' });
          else toast.success(answer.message || cycleMessages.resumed, { id: 'cycle-resume' });
        },
        onError: (error) => {
          // While the choice is open the dialog shows the refusal; a toast would cover its buttons on a phone.
          if (missingLots) return;
          const { title, description } = failureToast(
            error,
            cycleMessages.resumeFailed,
            cycleMessages.resumeError,
          );
          toast.error(title, { id: 'cycle-resume', description });
        },
      },
    );
  // Coins sold outside the platform: Resume first asks whether to re-buy them or drop the missing lot.
  const onResume = (cycle: LiveCycle) =>
    isMissingCoinsHalt(cycle.haltReason) ? setChoosing({ open: true, cycle }) : send(cycle);
  const choosingCycle = fresh(choosing);

  return (
    <section aria-labelledby="live-cycles-title" className="mt-8">
      <div className="mb-4 flex items-baseline justify-between gap-3">
        <h2 id="live-cycles-title" className="text-lg font-semibold text-fg">
          Live Cycles
          {cycles.data ? <span className="ml-2 text-sm font-medium text-muted">{list.length}</span> : null}
        </h2>
        <p className="text-xs text-muted">Refreshes every 10 s</p>
      </div>
      {cycles.isPending ? (
        <LoadingCards />
      ) : cycles.isError && !cycles.data ? (
        <div
          role="alert"
          className="flex flex-col items-center gap-3 rounded-xl border border-line bg-surface px-6 py-10 text-center"
        >
          <AlertIcon className="size-7 text-warn" />
          <p className="text-sm text-muted">Could not load your live cycles. {cycles.error.message}</p>
          <Button variant="outline" size="sm" onClick={() => void cycles.refetch()}>
            Retry
          </Button>
        </div>
      ) : list.length === 0 ? (
        <EmptyState
          icon={<CycleIcon />}
          title="No live cycles"
          description="Start a cycle above: it buys at your buy price, sells at your sell price and repeats."
        />
      ) : (
        <div className={cardGridClass}>
          {list.map((cycle) => (
            <CycleCard
              key={cycle.id}
              cycle={cycle}
              onEdit={() => setEditing({ open: true, cycle })}
              onStop={() => setStopping({ open: true, cycle })}
              onResume={() => onResume(cycle)}
              resuming={resume.isPending && resume.variables?.cycleId === cycle.id}
            />
          ))}
        </div>
      )}
      <EditCycleDialog
        open={editing.open}
        cycle={fresh(editing)}
        onClose={() => setEditing((t) => ({ ...t, open: false }))}
      />
      <StopCycleDialog
        open={stopping.open}
        cycle={fresh(stopping)}
        pending={pending}
        onStop={onStop}
        onClose={() => setStopping((t) => ({ ...t, open: false }))}
      />
      <MissingLotsDialog
        open={choosing.open && choosingCycle !== null}
        onClose={() => setChoosing((t) => ({ ...t, open: false }))}
        reason={choosingCycle?.haltReason ?? ''}
        busy={resume.isPending}
        error={resume.isError ? errorMessage(resume.error, cycleMessages.resumeError) : null}
        onConfirm={(choice) => choosingCycle && send(choosingCycle, choice)}
      />
    </section>
  );
}
