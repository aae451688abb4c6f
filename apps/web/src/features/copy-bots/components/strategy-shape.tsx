import { type DataColumn, DataTable } from '../../../components/ui/data-table';

/** A strategy snapshot as stored (docs/spec/01-core-screens.md §3 Strategy stored), read defensively: it arrives untyped. */
function list(value: unknown): number[] {
  return Array.isArray(value) ? value.map(Number) : [];
}

function pct(value: number | undefined, fraction = false): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return `${(fraction ? value * 100 : value).toFixed(2).replace(/\.?0+$/, '')}%`;
}

/** The grid table of the copied strategy: allotment, buy and take-profit per grid. */
export function StrategyShape({ strategy }: { strategy: Record<string, unknown> }) {
  const alloc = list(strategy.allotted_amount_percentage_per_order);
  const grids = Number(strategy.No_of_order) || alloc.length;
  const buy = list(strategy.buy_percentage);
  const buyUp = list(strategy.buy_percentage_up);
  const tpList = list(strategy.takeprofit_percentage);
  const tpSingle =
    typeof strategy.takeprofit_percentage === 'number' ? strategy.takeprofit_percentage : undefined;
  const tpDown = list(strategy.takeprofit_percentage_down);
  const multigrid = tpSingle === undefined;
  const right = { align: 'right' } as const;
  const columns: DataColumn<number>[] = [
    { key: 'grid', header: 'Grid', cell: (i) => i + 1, cellClassName: () => 'text-muted' },
    { key: 'allotted', header: 'Allotted', ...right, cell: (i) => pct(alloc[i], true) },
    { key: 'buy', header: 'Buy', ...right, cell: (i) => (i === 0 ? 'Market' : `-${pct(buy[i - 1])}`) },
  ];
  if (multigrid)
    columns.push(
      { key: 'buy-up', header: 'Buy up', ...right, cell: (i) => (i === 0 ? '—' : pct(buyUp[i - 1])) },
      {
        key: 'tp',
        header: 'Take profit',
        ...right,
        cell: (i) => `+${pct(tpList[i])}`,
        cellClassName: () => 'text-up',
      },
      { key: 'tp-down', header: 'TP down', ...right, cell: (i) => pct(tpDown[i]) },
    );
  return (
    <div>
      {/* A few short columns: it stays a table on a phone, scrolling inside its box. */}
      <DataTable
        caption="Strategy grids"
        columns={columns}
        rows={Array.from({ length: grids }, (_, i) => i)}
        rowKey={String}
        loading={false}
        tableOnPhone
        className="max-h-64 overflow-y-auto rounded-lg border border-line tabular-nums"
      />
      {!multigrid ? (
        <p className="mt-2 text-sm text-muted">
          Take profit <span className="font-semibold text-up">+{pct(tpSingle)}</span> on the average entry
          price.
        </p>
      ) : null}
    </div>
  );
}
