import { formatPrice } from '../../../lib/format';

/** A stored price, or null when unset (the strategy arrives untyped). */
function priceOf(value: unknown): number | null {
  const n = Number(value);
  return value === null || value === undefined || !(n > 0) ? null : n;
}

const priceText = (value: unknown) => {
  const n = priceOf(value);
  return n === null ? 'Off' : formatPrice(n);
};

/**
 * A range grid's parameters as Copy BOTs hands them to Start Grid (docs/trading-rules.md §2.6): range, grid count,
 * spacing, stops and trailing; futures add the direction and leverage.
 */
export function RangeParams({ strategy, future }: { strategy: Record<string, unknown>; future: boolean }) {
  const rows: [string, string][] = [
    ['Lower price', priceText(strategy.lower)],
    ['Upper price', priceText(strategy.upper)],
    ['Grids', String(Number(strategy.grids) || '—')],
    ['Spacing', strategy.mode === 'geometric' ? 'Geometric' : 'Arithmetic'],
    ['Stop-loss price', priceText(strategy.stopLoss)],
    ['Take-profit price', priceText(strategy.takeProfit)],
    [
      'Trailing up',
      strategy.trailingUp === true
        ? priceOf(strategy.trailingUpLimit) === null
          ? 'On'
          : `On, up to ${priceText(strategy.trailingUpLimit)}`
        : 'Off',
    ],
  ];
  if (future) {
    rows.push(
      [
        'Trailing down',
        strategy.trailingDown === true
          ? priceOf(strategy.trailingDownLimit) === null
            ? 'On'
            : `On, down to ${priceText(strategy.trailingDownLimit)}`
          : 'Off',
      ],
      ['Direction', String(strategy.direction ?? 'long').replace(/^./, (c) => c.toUpperCase())],
      ['Leverage', `${Number(strategy.leverage) || 1}x`],
    );
  }
  return (
    <dl
      aria-label="Grid parameters"
      className="grid grid-cols-2 gap-x-4 gap-y-1.5 rounded-lg bg-surface-2 p-3 text-sm sm:grid-cols-4"
    >
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs text-muted">{label}</dt>
          <dd className="font-semibold text-fg tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
