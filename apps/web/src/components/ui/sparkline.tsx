import { clsx } from 'clsx';
import { useId } from 'react';

interface SparklineProps {
  values: readonly number[];
  className?: string;
  /** Accessible description; without it the sparkline is decorative. */
  label?: string;
}

/**
 * A small price line, green when the last value is at or above the first, red otherwise. Drawn as one SVG path
 * rather than on lightweight-charts: a list shows one per card (dozens on Copy BOTs), and each chart of that
 * library is a set of canvases with its own resize observer, axes and crosshair, none of which a 120×36 line uses.
 */
export function Sparkline({ values, className, label }: SparklineProps) {
  const gradientId = useId();
  const width = 120;
  const height = 36;
  const points = values.filter((v) => Number.isFinite(v));
  const first = points[0];
  const lastValue = points[points.length - 1];
  if (points.length < 2 || first === undefined || lastValue === undefined) {
    return (
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className={clsx('h-9 w-full text-line', className)}
        aria-hidden="true"
      >
        <path d={`M0 ${height / 2}H${width}`} stroke="currentColor" strokeDasharray="3 3" />
      </svg>
    );
  }
  const min = Math.min(...points);
  const max = Math.max(...points);
  const span = max - min || 1;
  const xy = points.map((v, i) => [
    (i / (points.length - 1)) * width,
    height - 2 - ((v - min) / span) * (height - 4),
  ]);
  const line = xy.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x?.toFixed(1)} ${y?.toFixed(1)}`).join('');
  const area = `${line}L${width} ${height}L0 ${height}Z`;
  const up = lastValue >= first;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      className={clsx('h-9 w-full', up ? 'text-up' : 'text-down', className)}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      <defs>
        <linearGradient id={gradientId} x1="0" x2="0" y1="0" y2="1">
          <stop offset="0%" stopColor="currentColor" stopOpacity="0.25" />
          <stop offset="100%" stopColor="currentColor" stopOpacity="0" />
        </linearGradient>
      </defs>
      <path d={area} fill={`url(#${gradientId})`} />
      <path
        d={line}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        vectorEffect="non-scaling-stroke"
        strokeLinejoin="round"
      />
    </svg>
  );
}
