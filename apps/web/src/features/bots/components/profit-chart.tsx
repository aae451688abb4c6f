import { barLayout, ChartBar, ChartGridLine } from '../../../components/ui/bar-chart';
import { Card, CardHeader } from '../../../components/ui/card';
import { useElementWidth } from '../../../components/ui/use-element-width';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { formatUsd } from '../lib/bot-format';

/** docs/spec/02-bots-wallet-account.md §9: the chart is orange. */
const ORANGE = '#f7931a';

/** Round axis steps: 1, 2 or 5 times a power of ten. */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

function shortDate(key: string): string {
  const date = new Date(`${key}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return key;
  return date.toLocaleDateString('en-GB', { day: '2-digit', month: 'short', timeZone: 'UTC' });
}

/** docs/spec/02-bots-wallet-account.md Profit Chart: series Profit($) per day on a band axis, orange, 200 px high on mobile, 500 otherwise. */
export function ProfitChart({ datewiseprofit }: { datewiseprofit: Record<string, number> }) {
  const mobile = useMediaQuery(MOBILE_QUERY);
  const height = mobile ? 200 : 500;
  const { ref, width } = useElementWidth(200);
  const entries = Object.entries(datewiseprofit)
    .map(([date, value]) => [date, Number(value)] as const)
    .filter(([, value]) => Number.isFinite(value))
    .sort(([a], [b]) => a.localeCompare(b));

  const pad = { top: 16, right: 12, bottom: 28, left: 64 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const values = entries.map(([, v]) => v);
  const rawMax = Math.max(0, ...values);
  const rawMin = Math.min(0, ...values);
  const step = niceStep(rawMax - rawMin || 1, mobile ? 3 : 6);
  const max = Math.ceil(rawMax / step) * step || step;
  const min = Math.floor(rawMin / step) * step;
  const y = (v: number) => pad.top + ((max - v) / (max - min)) * plotH;
  const ticks: number[] = [];
  for (let t = min; t <= max + step / 2; t += step) ticks.push(Number(t.toFixed(10)));
  const { barWidth, labelEvery, barX } = barLayout(entries.length, pad.left, plotW, {
    fill: 0.7,
    maxBarWidth: 48,
    labelSpacing: 64,
  });

  return (
    <Card>
      <CardHeader title="Profit Chart" description="Booked profit per day, in USDT." />
      <div ref={ref} className="px-2 py-3 sm:px-4">
        {entries.length === 0 ? (
          <div
            style={{ height }}
            className="flex items-center justify-center text-sm text-muted"
            data-testid="profit-chart-empty"
          >
            No profit booked yet.
          </div>
        ) : (
          <svg
            width={width}
            height={height}
            role="img"
            aria-label={`Profit($) per day, ${entries.length} days`}
            className="block max-w-full text-muted"
          >
            {ticks.map((t) => (
              <ChartGridLine
                key={t}
                y={y(t)}
                left={pad.left}
                right={width - pad.right}
                labelGap={8}
                strokeOpacity={t === 0 ? 0.5 : 0.15}
                label={formatUsd(t)}
              />
            ))}
            {entries.map(([date, value], i) => (
              <ChartBar
                key={date}
                x={barX(i)}
                width={barWidth}
                value={value}
                y={y}
                title={`${date}: Profit($) ${formatUsd(value)}`}
                label={i % labelEvery === 0 ? shortDate(date) : undefined}
                labelY={height - 8}
                fill={ORANGE}
              />
            ))}
          </svg>
        )}
      </div>
    </Card>
  );
}
