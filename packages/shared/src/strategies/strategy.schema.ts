import { z } from 'zod';
import { requiredString } from '../common/fields';
import { strategyMessages as m } from './strategy.messages';
import {
  cellField,
  cellRules,
  checkAllotmentTotal,
  checkCell,
  checkMarketCell,
  gridCountField,
  readCell,
} from './strategy-cells';

export const STRATEGY_NAME_MAX = 40;
/** docs/spec/01-core-screens.md §9: grid-count bounds. */
export const MULTIGRID_MAX_GRIDS = 50;
export const SCALPING_MAX_GRIDS = 10;
/** docs/spec/01-core-screens.md §5/§9 Auto Fill values and the scalping take-profit default. */
export const AUTO_FILL = { buyPct: 1.2, upDownPct: 0.2, takeProfitPct: 1.2 } as const;
export const SCALP_TAKE_PROFIT_DEFAULT = 3;

export const STRATEGY_KINDS = ['multigrid', 'scalping'] as const;
export type StrategyKind = (typeof STRATEGY_KINDS)[number];

/** True when a name holds a control character (tab, newline, NUL…): names show on cards and in URLs. */
const hasControlChars = (name: string) =>
  [...name].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127);

export const strategyNameField = requiredString(m.nameRequired)
  .max(STRATEGY_NAME_MAX, m.nameMax)
  .refine((name) => !hasControlChars(name), m.nameInvalid);

const rowObject = <T extends z.core.$ZodLooseShape>(shape: T) => z.object(shape, { error: m.rowType });

export const multigridRowSchema = rowObject({
  gridNo: cellField,
  allottedAmountPercentagePerOrder: cellField,
  buyPercentage: cellField,
  buyPercentageUp: cellField,
  takeProfitPercentage: cellField,
  takeProfitPercentageDown: cellField,
});

export const scalpingRowSchema = rowObject({
  gridNo: cellField,
  allottedAmountPercentagePerOrder: cellField,
  buyPercentage: cellField,
});

/** Multigrid table: every cell's bounds, grid 1 at market price, allotments totalling 100 %. */
const multigridTable = z.array(multigridRowSchema, { error: m.tableRequired }).superRefine((rows, ctx) => {
  const allotted: number[] = [];
  rows.forEach((row, i) => {
    const grid = i + 1;
    const a = checkCell(ctx, row.allottedAmountPercentagePerOrder, cellRules.allotted, grid, [
      i,
      'allottedAmountPercentagePerOrder',
    ]);
    if (a !== undefined) allotted.push(a);
    if (i === 0) {
      checkMarketCell(ctx, row.buyPercentage, [i, 'buyPercentage']);
      checkMarketCell(ctx, row.buyPercentageUp, [i, 'buyPercentageUp']);
    } else {
      checkCell(ctx, row.buyPercentage, cellRules.buy, grid, [i, 'buyPercentage']);
      checkCell(ctx, row.buyPercentageUp, cellRules.buyUp, grid, [i, 'buyPercentageUp']);
    }
    checkCell(ctx, row.takeProfitPercentage, cellRules.takeProfit, grid, [i, 'takeProfitPercentage']);
    checkCell(ctx, row.takeProfitPercentageDown, cellRules.takeProfitDown, grid, [
      i,
      'takeProfitPercentageDown',
    ]);
  });
  if (allotted.length === rows.length && rows.length > 0) checkAllotmentTotal(ctx, allotted, []);
});

/** Scalping table: allotment and buy cells; take-profit is one field beside the table. */
const scalpingTable = z.array(scalpingRowSchema, { error: m.tableRequired }).superRefine((rows, ctx) => {
  const allotted: number[] = [];
  rows.forEach((row, i) => {
    const grid = i + 1;
    const a = checkCell(ctx, row.allottedAmountPercentagePerOrder, cellRules.allotted, grid, [
      i,
      'allottedAmountPercentagePerOrder',
    ]);
    if (a !== undefined) allotted.push(a);
    if (i === 0) checkMarketCell(ctx, row.buyPercentage, [i, 'buyPercentage']);
    else checkCell(ctx, row.buyPercentage, cellRules.buy, grid, [i, 'buyPercentage']);
  });
  if (allotted.length === rows.length && rows.length > 0) checkAllotmentTotal(ctx, allotted, []);
});

// Not `cellField`: an optional schema skips its refinements when the key is absent.
const scalpTakeProfitField = z
  .union([z.number(), z.string(), z.null()], {
    error: (issue) => (issue.input == null ? m.scalpTakeProfitRequired : m.scalpTakeProfitRange),
  })
  .superRefine((value, ctx) => {
    const n = readCell(value);
    if (n === undefined) ctx.addIssue({ code: 'custom', message: m.scalpTakeProfitRequired });
    else if (n === null || !(n > 0 && n <= 1000))
      ctx.addIssue({ code: 'custom', message: m.scalpTakeProfitRange });
  });

const num = (value: unknown) => readCell(value) as number;

function rowCountMatches(ctx: z.RefinementCtx, rows: unknown[], grids: number) {
  if (rows.length !== grids)
    ctx.addIssue({ code: 'custom', message: m.tableRows(grids), path: ['tableData'] });
}

/** A Multigrid strategy in percent, as the engine's parameters want it (docs/trading-rules.md §2.2). */
export interface MultigridStrategyInput {
  kind: 'multigrid';
  strategyName: string;
  noOfGrids: number;
  /** Per grid, percent of the investment. */
  allottedPct: number[];
  /** Grids 2..N (grid 1 buys at market). */
  buyPct: number[];
  buyUpPct: number[];
  /** Per grid. */
  takeProfitPct: number[];
  takeProfitDownPct: number[];
}

/** A Scalping strategy in percent (docs/trading-rules.md §2.3): one take-profit on the average entry. */
export interface ScalpingStrategyInput {
  kind: 'scalping';
  strategyName: string;
  noOfGrids: number;
  allottedPct: number[];
  buyPct: number[];
  takeProfitPct: number;
}

/**
 * POST /api/strategy and the Multigrid form (docs/spec/01-core-screens.md §3, §5): `tableData` has one row per grid; grid 1's buy
 * cells are 'marketprice' (or absent); other cells are numbers or numeric strings.
 */
export const multigridStrategySchema = z
  .object(
    {
      strategyName: strategyNameField,
      noOfGrids: gridCountField(MULTIGRID_MAX_GRIDS, m.gridsMultigrid),
      tableData: multigridTable,
    },
    { error: m.strategyRequired },
  )
  .superRefine((v, ctx) => rowCountMatches(ctx, v.tableData, v.noOfGrids))
  .transform(
    (v): MultigridStrategyInput => ({
      kind: 'multigrid',
      strategyName: v.strategyName,
      noOfGrids: v.noOfGrids,
      allottedPct: v.tableData.map((r) => num(r.allottedAmountPercentagePerOrder)),
      buyPct: v.tableData.slice(1).map((r) => num(r.buyPercentage)),
      buyUpPct: v.tableData.slice(1).map((r) => num(r.buyPercentageUp)),
      takeProfitPct: v.tableData.map((r) => num(r.takeProfitPercentage)),
      takeProfitDownPct: v.tableData.map((r) => num(r.takeProfitPercentageDown)),
    }),
  );
export type MultigridStrategyPayload = z.input<typeof multigridStrategySchema>;

/** POST /api/strategyscalp and the Scalping form: the same plus one `takeProfitPercentage` (default 3). */
export const scalpingStrategySchema = z
  .object(
    {
      strategyName: strategyNameField,
      noOfGrids: gridCountField(SCALPING_MAX_GRIDS, m.gridsScalping),
      tableData: scalpingTable,
      takeProfitPercentage: scalpTakeProfitField,
    },
    { error: m.strategyRequired },
  )
  .superRefine((v, ctx) => rowCountMatches(ctx, v.tableData, v.noOfGrids))
  .transform(
    (v): ScalpingStrategyInput => ({
      kind: 'scalping',
      strategyName: v.strategyName,
      noOfGrids: v.noOfGrids,
      allottedPct: v.tableData.map((r) => num(r.allottedAmountPercentagePerOrder)),
      buyPct: v.tableData.slice(1).map((r) => num(r.buyPercentage)),
      takeProfitPct: num(v.takeProfitPercentage),
    }),
  );
export type ScalpingStrategyPayload = z.input<typeof scalpingStrategySchema>;

/** POST /api/stratagyedit: the strategy, named by `strategyName`, with its new table (docs/spec/01-core-screens.md §7). */
export const multigridEditSchema = z.object({ dataToSend: multigridStrategySchema });
export type MultigridEditPayload = z.input<typeof multigridEditSchema>;

/** POST /api/scalpstratagyedit. */
export const scalpingEditSchema = z.object({ dataToSend: scalpingStrategySchema });
export type ScalpingEditPayload = z.input<typeof scalpingEditSchema>;

const lookupName = requiredString(m.strategyNameParamRequired).max(200, m.notFound);

/** POST /api/stratagybypara, /api/scalpstratagybypara, /api/deletestrategy, /api/scalpdeletestrategy. */
export const strategyByNameSchema = z.object({ strategy_name: lookupName });
export type StrategyByName = z.infer<typeof strategyByNameSchema>;

/** POST /api/noofgrid: the grid count of an own or system strategy; `kind` narrows the search. */
export const noOfGridSchema = z.object({
  strategyName: lookupName,
  kind: z.enum(STRATEGY_KINDS).optional(),
});
export type NoOfGridInput = z.infer<typeof noOfGridSchema>;

/** POST /api/copystrategy (ours): copies a system strategy into the user's own, optionally renamed. */
export const copyStrategySchema = z.object({
  strategy_name: lookupName,
  kind: z.enum(STRATEGY_KINDS, { error: 'kind must be multigrid or scalping.' }),
  newName: strategyNameField.optional(),
});
export type CopyStrategyInput = z.infer<typeof copyStrategySchema>;
