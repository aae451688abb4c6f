import type { LiveCycle } from '@gridbot/shared';
import { formatNumber } from '../../../lib/format';
import { cycleProgress } from '../lib/cycle-form';

/** Cycles done over the cycle count; half a step while a bought position is held (docs/spec/02-bots-wallet-account.md §4). */
export function CycleProgress({ cycle }: { cycle: LiveCycle }) {
  const { done, total, pct } = cycleProgress(cycle);
  const text = `${formatNumber(done, 1)}/${formatNumber(total, 1)}`;
  return (
    <div>
      <div className="flex items-baseline justify-between gap-2 text-xs">
        <span className="text-muted">Cycles</span>
        <span className="font-semibold text-fg tabular-nums" data-testid="cycle-progress-text">
          {text}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Cycles completed"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${text} cycles`}
        className="mt-1.5 h-2 overflow-hidden rounded-full bg-surface-2"
      >
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-300"
          style={{ width: `${pct}%` }}
        />
      </div>
    </div>
  );
}
