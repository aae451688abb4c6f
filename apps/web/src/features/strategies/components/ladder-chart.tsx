import type { Ladder, StrategyKind } from '@gridbot/shared';
import { useId } from 'react';
import { formatNumber } from '../../../lib/format';

const W = 400;
const H = 280;
const LEFT = 40;
const RIGHT = 10;
const TOP = 12;
const PRICE_BOTTOM = 200;
const BAND_TOP = 222;
const BAND_BOTTOM = 262;

/** Three to five round price ticks across [lo, hi]. */
function ticks(lo: number, hi: number): number[] {
  const raw = (hi - lo) / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Number(v.toFixed(6)));
  return out;
}

function domain(ladder: Ladder): [number, number] {
  const prices = ladder.levels.flatMap((l) =>
    l.takeProfitPrice === null ? [l.buyPrice] : [l.buyPrice, l.takeProfitPrice],
  );
  let lo = Math.min(ladder.startPrice, ...prices);
  let hi = Math.max(ladder.startPrice, ...prices);
  if (hi - lo < 2) {
    lo -= 1;
    hi += 1;
  }
  const pad = (hi - lo) * 0.06;
  return [lo - pad, hi + pad];
}

interface LadderChartProps {
  ladder: Ladder;
  kind: StrategyKind;
}

/**
 * The ladder as an SVG: a staircase of buy levels falling from 100, each grid's take-profit above it (for
 * Scalping the sell-all level on the average entry), and each grid's share of the investment as a bar.
 * Colours are the theme's CSS variables, so it follows light and dark. SVG rather than lightweight-charts:
 * its x axis is the grid number, not time, and the staircase, markers and allocation band are one picture.
 */
export function LadderChart({ ladder, kind }: LadderChartProps) {
  const titleId = useId();
  const descId = useId();
  const n = ladder.levels.length;
  const [lo, hi] = domain(ladder);
  const y = (p: number) => TOP + ((hi - p) / (hi - lo)) * (PRICE_BOTTOM - TOP);
  const slot = (W - LEFT - RIGHT) / Math.max(n, 1);
  const x = (i: number) => LEFT + slot * (i + 0.5);
  const maxAlloc = Math.max(...ladder.levels.map((l) => l.allottedPct), 0);
  const dot = n > 30 ? 2 : n > 15 ? 2.6 : 3.4;

  // Step line: from the left edge at grid 1's price, across each slot, down to the next grid's price.
  const stairs = ladder.levels
    .map((l, i) =>
      i === 0
        ? `M${(x(0) - slot / 2).toFixed(2)},${y(l.buyPrice).toFixed(2)}`
        : `H${x(i).toFixed(2)} V${y(l.buyPrice).toFixed(2)}`,
    )
    .join(' ');
  const stairsEnd = n > 0 ? ` H${(x(n - 1) + slot / 2).toFixed(2)}` : '';
  const scalpTp = ladder.levels
    .map((l, i) =>
      l.takeProfitPrice === null ? null : `${x(i).toFixed(2)},${y(l.takeProfitPrice).toFixed(2)}`,
    )
    .filter((p): p is string => p !== null)
    .join(' ');

  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby={`${titleId} ${descId}`}
      className="h-auto w-full select-none"
      data-testid="ladder-chart"
    >
      <title id={titleId}>Ladder preview</title>
      <desc id={descId}>
        {`${n} grids from ${formatNumber(ladder.startPrice)} down to ${formatNumber(ladder.deepestPrice)} (−${formatNumber(ladder.deepestDropPct)} %), ${formatNumber(ladder.totalAllottedPct)} % of the investment allotted.`}
      </desc>

      {ticks(lo, hi).map((t) => (
        <g key={t}>
          <line x1={LEFT} x2={W - RIGHT} y1={y(t)} y2={y(t)} stroke="var(--line)" strokeWidth={0.8} />
          <text x={LEFT - 6} y={y(t) + 3.5} textAnchor="end" fontSize={10} fill="var(--muted)">
            {formatNumber(t)}
          </text>
        </g>
      ))}
      <line
        x1={LEFT}
        x2={W - RIGHT}
        y1={y(ladder.startPrice)}
        y2={y(ladder.startPrice)}
        stroke="var(--muted)"
        strokeDasharray="4 3"
        strokeWidth={1}
      />

      {kind === 'scalping' && scalpTp ? (
        <polyline points={scalpTp} fill="none" stroke="var(--up)" strokeWidth={1.6} strokeDasharray="5 3" />
      ) : null}
      {n > 0 ? (
        <path
          d={stairs + stairsEnd}
          fill="none"
          stroke="var(--primary)"
          strokeWidth={1.8}
          strokeLinejoin="round"
        />
      ) : null}

      {ladder.levels.map((l, i) => {
        const bar = maxAlloc > 0 ? (l.allottedPct / maxAlloc) * (BAND_BOTTOM - BAND_TOP) : 0;
        const tip =
          l.takeProfitPrice === null
            ? ''
            : `, ${kind === 'scalping' ? 'sells all' : 'take-profit'} at ${formatNumber(l.takeProfitPrice)}`;
        return (
          <g key={l.grid}>
            <title>{`Grid ${l.grid}: buys at ${formatNumber(l.buyPrice)} (−${formatNumber(l.dropPct)} %), ${formatNumber(l.allottedPct)} % of the investment${tip}`}</title>
            <rect x={x(i) - slot / 2} y={TOP} width={slot} height={BAND_BOTTOM - TOP} fill="transparent" />
            {kind === 'multigrid' && l.takeProfitPrice !== null ? (
              <>
                <line
                  x1={x(i)}
                  x2={x(i)}
                  y1={y(l.buyPrice)}
                  y2={y(l.takeProfitPrice)}
                  stroke="var(--up)"
                  strokeOpacity={0.55}
                  strokeWidth={Math.max(1, dot * 0.5)}
                />
                <path
                  d={`M${x(i) - dot * 1.1},${y(l.takeProfitPrice) + dot * 0.9} L${x(i)},${y(l.takeProfitPrice) - dot * 0.9} L${x(i) + dot * 1.1},${y(l.takeProfitPrice) + dot * 0.9} Z`}
                  fill="var(--up)"
                />
              </>
            ) : null}
            <circle
              cx={x(i)}
              cy={y(l.buyPrice)}
              r={dot}
              fill={l.buyValid ? 'var(--primary)' : 'var(--surface)'}
              stroke={l.buyValid ? 'var(--primary)' : 'var(--warn)'}
              strokeWidth={l.buyValid ? 0 : 1.4}
            />
            <rect
              x={x(i) - Math.max(slot * 0.32, 0.6)}
              y={BAND_BOTTOM - bar}
              width={Math.max(slot * 0.64, 1.2)}
              height={bar}
              rx={Math.min(2, slot * 0.15)}
              fill="var(--primary)"
              fillOpacity={0.45}
            />
          </g>
        );
      })}

      <line x1={LEFT} x2={W - RIGHT} y1={BAND_BOTTOM} y2={BAND_BOTTOM} stroke="var(--line)" />
      <text x={LEFT - 6} y={BAND_TOP + 10} textAnchor="end" fontSize={9} fill="var(--muted)">
        {maxAlloc > 0 ? `${formatNumber(maxAlloc, 1)}%` : ''}
      </text>
      <text x={LEFT} y={BAND_TOP - 6} fontSize={9} fill="var(--muted)">
        Allocation per grid
      </text>
      {n > 0 ? (
        <>
          <text x={x(0)} y={H - 4} textAnchor="middle" fontSize={9.5} fill="var(--muted)">
            G1
          </text>
          {n > 1 ? (
            <text x={x(n - 1)} y={H - 4} textAnchor="middle" fontSize={9.5} fill="var(--muted)">
              {`G${n}`}
            </text>
          ) : null}
        </>
      ) : null}
    </svg>
  );
}
