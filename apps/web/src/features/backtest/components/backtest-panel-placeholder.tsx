import { Card, CardHeader } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';

/** The backtest panel's heading when its screen gives none. */
export const BACKTEST_DESCRIPTION =
  "What this strategy would have done on the pair's price history, with fees — next to simply holding the coin.";

/** A select's place: its label's line (text-sm), the Field's gap and the select's 44 px. */
function FieldPlaceholder({ className }: { className?: string }) {
  return (
    <div className={className}>
      <Skeleton className="h-5 w-20" />
      <Skeleton className="mt-1.5 h-11" />
    </div>
  );
}

/**
 * The place of the line that names the candles and their source until the pair's history has answered: four
 * lines of text-xs in a phone's column, three in a wider one.
 */
export function SourceLinePlaceholder() {
  return (
    <div className="h-16 space-y-2 pt-1 sm:h-12">
      <Skeleton className="h-2.5 w-11/12" />
      <Skeleton className="h-2.5 w-4/5" />
      <Skeleton className="h-2.5 w-2/3" />
    </div>
  );
}

/**
 * What stands in for the backtest panel while its code loads: the panel's own card, heading and rows of fields
 * at their sizes, so that the form below it (the Start Bot form's checkbox and Start button) does not move when
 * the panel lands under the user's cursor.
 */
export function BacktestPanelPlaceholder({
  description,
  pickMarket,
}: {
  description?: string;
  pickMarket?: boolean;
}) {
  return (
    <Card aria-busy="true" data-testid="backtest-panel-placeholder">
      <CardHeader title="Backtest" description={description ?? BACKTEST_DESCRIPTION} />
      <div className="space-y-4 px-5 py-4">
        {pickMarket ? (
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            <FieldPlaceholder />
            <FieldPlaceholder />
            <FieldPlaceholder className="col-span-2 sm:col-span-1" />
          </div>
        ) : null}
        <div className="grid grid-cols-2 gap-3">
          <FieldPlaceholder />
          <FieldPlaceholder />
          <Skeleton className="col-span-2 h-10 rounded-lg" />
        </div>
        <SourceLinePlaceholder />
      </div>
    </Card>
  );
}
