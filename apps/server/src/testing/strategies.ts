/** Valid strategy payloads for tests (docs/spec/01-core-screens.md §7 shapes). */

/** A table row as a client may send it: cells are numbers or numeric strings. */
export type TableRow = Record<string, number | string>;

/** A Multigrid create body with `grids` equal rows (allotments total 100 %). */
export function multigridBody(name: string, grids = 4, over: Record<string, unknown> = {}) {
  const share = Number((100 / grids).toFixed(4));
  const tableData = Array.from(
    { length: grids },
    (_, i): TableRow => ({
      gridNo: i + 1,
      allottedAmountPercentagePerOrder:
        i === grids - 1 ? Number((100 - share * (grids - 1)).toFixed(4)) : share,
      buyPercentage: i === 0 ? 'marketprice' : 1.2,
      buyPercentageUp: i === 0 ? 'marketprice' : 0.2,
      takeProfitPercentage: 1.2,
      takeProfitPercentageDown: 0.2,
    }),
  );
  return { strategyName: name, noOfGrids: grids, tableData, ...over };
}

/** A Scalping create body with `grids` equal rows and take-profit 3. */
export function scalpingBody(name: string, grids = 5, over: Record<string, unknown> = {}) {
  const share = Number((100 / grids).toFixed(4));
  const tableData = Array.from(
    { length: grids },
    (_, i): TableRow => ({
      gridNo: i + 1,
      allottedAmountPercentagePerOrder:
        i === grids - 1 ? Number((100 - share * (grids - 1)).toFixed(4)) : share,
      buyPercentage: i === 0 ? 'marketprice' : '1.5',
    }),
  );
  return { strategyName: name, noOfGrids: grids, tableData, takeProfitPercentage: 3, ...over };
}
