import { BarChart } from '../../../components/ui/bar-chart';
import { Card, CardHeader } from '../../../components/ui/card';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { formatUsd } from '../lib/bot-format';

/** docs/spec/02-bots-wallet-account.md §9: the chart is orange. */
const ORANGE = '#f7931a';

/** docs/spec/02-bots-wallet-account.md Profit Chart: series Profit($) per day, orange, 200 px high on mobile, 500 otherwise. */
export function ProfitChart({ datewiseprofit }: { datewiseprofit: Record<string, number> }) {
  const mobile = useMediaQuery(MOBILE_QUERY);
  const height = mobile ? 200 : 500;
  const entries = Object.entries(datewiseprofit)
    .map(([date, value]) => [date, Number(value)] as const)
    .filter(([, value]) => Number.isFinite(value))
    .sort(([a], [b]) => a.localeCompare(b));

  return (
    <Card>
      <CardHeader title="Profit Chart" description="Booked profit per day, in USDT." />
      <div className="px-2 py-3 sm:px-4">
        {entries.length === 0 ? (
          <div
            style={{ height }}
            className="flex items-center justify-center text-sm text-muted"
            data-testid="profit-chart-empty"
          >
            No profit booked yet.
          </div>
        ) : (
          <BarChart
            bars={entries}
            height={height}
            color={ORANGE}
            label={`Profit($) per day, ${entries.length} days`}
            formatValue={formatUsd}
          />
        )}
      </div>
    </Card>
  );
}
