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
  const rows = Array.from({ length: grids }, (_, i) => i);
  return (
    <div>
      <div className="max-h-64 overflow-auto rounded-lg border border-line">
        <table className="w-full text-sm tabular-nums" aria-label="Strategy grids">
          <thead className="sticky top-0 bg-surface-2">
            <tr className="text-left text-xs font-semibold text-muted">
              <th scope="col" className="px-3 py-2">
                Grid
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Allotted
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Buy
              </th>
              {multigrid ? (
                <>
                  <th scope="col" className="px-3 py-2 text-right">
                    Buy up
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    Take profit
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    TP down
                  </th>
                </>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((i) => (
              <tr key={i} className="border-t border-line/60">
                <td className="px-3 py-1.5 text-muted">{i + 1}</td>
                <td className="px-3 py-1.5 text-right text-fg">{pct(alloc[i], true)}</td>
                <td className="px-3 py-1.5 text-right text-fg">
                  {i === 0 ? 'Market' : `-${pct(buy[i - 1])}`}
                </td>
                {multigrid ? (
                  <>
                    <td className="px-3 py-1.5 text-right text-fg">{i === 0 ? '—' : pct(buyUp[i - 1])}</td>
                    <td className="px-3 py-1.5 text-right text-up">+{pct(tpList[i])}</td>
                    <td className="px-3 py-1.5 text-right text-fg">{pct(tpDown[i])}</td>
                  </>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!multigrid ? (
        <p className="mt-2 text-sm text-muted">
          Take profit <span className="font-semibold text-up">+{pct(tpSingle)}</span> on the average entry
          price.
        </p>
      ) : null}
    </div>
  );
}
