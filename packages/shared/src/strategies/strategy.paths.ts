import type { StrategyKind } from './strategy.schema';

/**
 * The strategy API's paths, written once for the server's routes and the web's calls. Multigrid first, the
 * Scalping twin second; the spellings (`stratagy`, `mystratagies`) are the specification's
 * (docs/spec/01-core-screens.md §7; docs/architecture.md §4).
 */
export const strategyKindApiPaths = {
  multigrid: {
    create: '/api/strategy',
    /** My Strategies: the user's own, in full. */
    list: '/api/mystratagieslist',
    /** Names for Start Bot and the header: the user's own. */
    mine: '/api/mystratagies',
    system: '/api/systemstrategy',
    byName: '/api/stratagybypara',
    edit: '/api/stratagyedit',
    remove: '/api/deletestrategy',
  },
  scalping: {
    create: '/api/strategyscalp',
    list: '/api/scalpmystratagieslist',
    mine: '/api/mystratagiesscalping',
    system: '/api/systemstrategyscalping',
    byName: '/api/scalpstratagybypara',
    edit: '/api/scalpstratagyedit',
    remove: '/api/scalpdeletestrategy',
  },
} as const satisfies Record<StrategyKind, Record<string, string>>;

/** Strategy paths that take the kind in the body. */
export const strategyApiPaths = {
  gridCount: '/api/noofgrid',
  copySystem: '/api/copystrategy',
} as const;
