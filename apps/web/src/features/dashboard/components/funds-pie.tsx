import type { PieSlice } from '@gridbot/shared';
import { Card, CardHeader } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { PIE_COLORS } from '../lib/pie';

function arc(cx: number, cy: number, r: number, start: number, end: number): string {
  const point = (angle: number) => [cx + r * Math.sin(angle), cy - r * Math.cos(angle)] as const;
  const [x1, y1] = point(start);
  const [x2, y2] = point(end);
  const large = end - start > Math.PI ? 1 : 0;
  return `M${x1} ${y1}A${r} ${r} 0 ${large} 1 ${x2} ${y2}`;
}

/**
 * docs/spec/01-core-screens.md Dashboard: total funds per bot as a donut, top 8 plus Others. Drawn as SVG arcs:
 * lightweight-charts has no pie, and nine arcs with a legend need no charting library (the list beside it
 * carries the figures for screen readers as well).
 */
export function FundsPie({
  slices,
  botCount,
  loading,
}: {
  slices: PieSlice[];
  /** Running bots: the centre counts bots, not slices (top 8 plus Others). */
  botCount: number;
  loading: boolean;
}) {
  const total = slices.reduce((sum, s) => sum + s.value, 0) || 1;
  let angle = 0;
  const size = 180;
  const r = 70;
  return (
    <Card className="h-full">
      <CardHeader title="Total Funds" description="Investment of each running bot." />
      <div className="flex flex-col items-center gap-5 p-5 sm:flex-row xl:flex-col 2xl:flex-row">
        {loading ? (
          <Skeleton className="size-44 rounded-full" />
        ) : (
          <svg
            viewBox={`0 0 ${size} ${size}`}
            className="size-44 shrink-0"
            role="img"
            aria-label={`Total funds: ${slices.map((s) => `${s.label} ${((s.value / total) * 100).toFixed(1)}%`).join(', ')}`}
          >
            {slices.length === 1 ? (
              <circle
                cx={size / 2}
                cy={size / 2}
                r={r}
                fill="none"
                strokeWidth={26}
                stroke={slices[0]?.label === 'Not Active' ? 'var(--line)' : PIE_COLORS[0]}
              />
            ) : (
              slices.map((slice, i) => {
                const start = angle;
                angle += (slice.value / total) * Math.PI * 2;
                return (
                  <path
                    key={slice.label}
                    d={arc(size / 2, size / 2, r, start, angle - 0.015)}
                    fill="none"
                    stroke={PIE_COLORS[i % PIE_COLORS.length]}
                    strokeWidth={26}
                  >
                    <title>{`${slice.label}: ${((slice.value / total) * 100).toFixed(1)}%`}</title>
                  </path>
                );
              })
            )}
            <text x="50%" y="47%" textAnchor="middle" className="fill-muted" fontSize="11">
              Bots
            </text>
            <text x="50%" y="58%" textAnchor="middle" className="fill-fg" fontSize="18" fontWeight="700">
              {botCount}
            </text>
          </svg>
        )}
        <ul className="w-full min-w-0 space-y-1.5 text-sm" aria-label="Funds by bot">
          {slices.map((slice, i) => (
            <li key={slice.label} className="flex items-center gap-2">
              <span
                aria-hidden="true"
                className="size-2.5 shrink-0 rounded-sm"
                style={{
                  background:
                    slice.label === 'Not Active' ? 'var(--line)' : PIE_COLORS[i % PIE_COLORS.length],
                }}
              />
              <span className="min-w-0 flex-1 truncate text-fg">{slice.label}</span>
              <span className="text-muted tabular-nums">{((slice.value / total) * 100).toFixed(1)}%</span>
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
