import { lazy, Suspense, useRef } from 'react';
import { useNearViewport } from '../../lib/use-near-viewport';

/** One bar per day: the day as YYYY-MM-DD and its value. */
export type DayBar = readonly [day: string, value: number];

export interface BarChartProps {
  bars: readonly DayBar[];
  /** Height in px; the chart is as wide as its box. */
  height: number;
  /** What the chart shows, for screen readers (the canvas itself says nothing). */
  label: string;
  /** One colour for every bar; without it a bar is green at or above zero and red below. */
  color?: string;
  /** The value axis's labels (e.g. dollars). */
  formatValue: (value: number) => string;
}

// lightweight-charts is a large library: the canvas loads after the screen, once the chart's box is near the
// viewport (below the fold on a phone), and the box keeps the chart's room meanwhile.
const BarChartCanvas = lazy(() => import('./bar-chart-canvas'));

/** Bars per day on lightweight-charts' histogram (a time axis, the value on hover). */
export function BarChart(props: BarChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(box);
  return (
    <div ref={box} role="img" aria-label={props.label} style={{ height: props.height }}>
      {near ? (
        <Suspense fallback={null}>
          <BarChartCanvas {...props} />
        </Suspense>
      ) : null}
    </div>
  );
}
