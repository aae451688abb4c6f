import type { SkippedBuyView } from '@gridbot/shared';
import { AlertIcon } from '../../../components/ui/icons';
import { formatDate } from '../../../lib/format';

/**
 * A buy the bot skipped because its order, rounded to the exchange's quantity step, was below the
 * exchange's minimum order: shown until a buy fills, so a bot that cannot buy is never silent.
 */
export function SkippedBuyBanner({ skipped, future }: { skipped: SkippedBuyView; future: boolean }) {
  return (
    <div
      role="status"
      className="flex items-start gap-3 rounded-xl border border-warn/40 bg-warn/10 p-4 text-sm"
    >
      <AlertIcon className="mt-0.5 size-5 shrink-0 text-warn" />
      <div className="min-w-0">
        <p className="font-semibold text-fg">Grid {skipped.grid} buy skipped</p>
        <p className="mt-0.5 text-muted">
          Its order of {skipped.notional.toFixed(2)} USDT is below the exchange minimum of{' '}
          {skipped.minNotional} USDT, so the bot does not buy it. Since {formatDate(skipped.since)}. Raise the
          investment{future ? ' or the leverage' : ''} to let it buy.
        </p>
      </div>
    </div>
  );
}
