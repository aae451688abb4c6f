import type { ReactNode } from 'react';

interface BarLayoutOptions {
  /** Share of its band a bar fills. */
  fill: number;
  maxBarWidth: number;
  /** Least room, in px, between two labels under the axis. */
  labelSpacing: number;
}

/** Bars on a band axis `plotWidth` wide: each bar's left edge, its width, and how often a label fits. */
export function barLayout(count: number, plotLeft: number, plotWidth: number, options: BarLayoutOptions) {
  const band = plotWidth / Math.max(count, 1);
  const barWidth = Math.max(Math.min(band * options.fill, options.maxBarWidth), 2);
  const labelEvery = Math.max(
    1,
    Math.ceil(count / Math.max(Math.floor(plotWidth / options.labelSpacing), 1)),
  );
  return { barWidth, labelEvery, barX: (index: number) => plotLeft + band * index + (band - barWidth) / 2 };
}

interface GridLineProps {
  y: number;
  left: number;
  right: number;
  /** Room between the value and the plot's left edge. */
  labelGap: number;
  strokeOpacity: number;
  label: ReactNode;
}

/** A horizontal grid line across the plot, its value written left of the plot. */
export function ChartGridLine({ y, left, right, labelGap, strokeOpacity, label }: GridLineProps) {
  return (
    <g>
      <line x1={left} x2={right} y1={y} y2={y} stroke="currentColor" strokeOpacity={strokeOpacity} />
      <text x={left - labelGap} y={y} dy="0.32em" textAnchor="end" fontSize="11" fill="currentColor">
        {label}
      </text>
    </g>
  );
}

interface ChartBarProps {
  x: number;
  width: number;
  value: number;
  /** The chart's value → y scale. */
  y: (value: number) => number;
  /** The tooltip. */
  title: string;
  /** Written under the bar, when given. */
  label?: string;
  labelY: number;
  fill?: string;
  className?: string;
}

/** One bar from zero to `value` (at least 1 px unless zero), with its tooltip and label. */
export function ChartBar({ x, width, value, y, title, label, labelY, fill, className }: ChartBarProps) {
  return (
    <g>
      <rect
        x={x}
        y={y(Math.max(value, 0))}
        width={width}
        height={Math.max(Math.abs(y(value) - y(0)), value === 0 ? 0 : 1)}
        rx={Math.min(3, width / 4)}
        fill={fill}
        className={className}
      >
        <title>{title}</title>
      </rect>
      {label === undefined ? null : (
        <text x={x + width / 2} y={labelY} textAnchor="middle" fontSize="11" fill="currentColor">
          {label}
        </text>
      )}
    </g>
  );
}
