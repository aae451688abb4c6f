/**
 * Every user-facing text of the strategy screens and routes. docs/spec/01-core-screens.md §5 and §8 texts are exact; the ones
 * marked (ours) fill gaps the spec leaves open.
 */
export const strategyMessages = {
  nameRequired: 'Strategy name is required.', // (ours)
  nameMax: 'Strategy name must be at most 40 characters long.', // (ours)
  nameInvalid: 'Strategy name must not contain control characters.', // (ours)
  strategyRequired: 'Strategy details are required.', // (ours)
  gridsMultigrid: 'Please enter a valid number of grids between 1 and 50.',
  gridsScalping: 'Please enter a valid number of grids between 1 and 10.',
  tableRequired: 'The grid table is required.', // (ours)
  tableRows: (grids: number) => `The grid table must have exactly ${grids} rows, one per grid.`, // (ours)
  cellType: 'Grid table cells must be numbers.', // (ours)
  rowType: 'Each grid table row must be an object.', // (ours)
  totalAllotted: (total: string) => `Total allotted amount should be 100%. Current total: ${total}%`,

  allottedRequired: (grid: number) => `Grid ${grid}: Allotted Amount (%) is required.`, // (ours)
  allottedRange: (grid: number) =>
    `Grid ${grid}: Allotted Amount (%) must be a number greater than 0 and at most 100.`, // (ours)
  buyRequired: (grid: number) => `Grid ${grid}: Buy (%) is required.`, // (ours)
  buyRange: (grid: number) => `Grid ${grid}: Buy (%) must be a number greater than 0 and less than 100.`, // (ours)
  buyUpRequired: (grid: number) => `Grid ${grid}: Buy (%) second condition is required.`, // (ours)
  buyUpRange: (grid: number) =>
    `Grid ${grid}: Buy (%) second condition must be a number from 0 up to (not including) 100.`, // (ours)
  marketPrice: `Grid 1 buys at market price: its buy cells must be 'marketprice'.`, // (ours)
  takeProfitRequired: (grid: number) => `Grid ${grid}: Take Profit (%) is required.`, // (ours)
  takeProfitRange: (grid: number) =>
    `Grid ${grid}: Take Profit (%) must be a number greater than 0 and at most 1000.`, // (ours)
  takeProfitDownRequired: (grid: number) => `Grid ${grid}: Take Profit (%) second condition is required.`, // (ours)
  takeProfitDownRange: (grid: number) =>
    `Grid ${grid}: Take Profit (%) second condition must be a number from 0 up to (not including) 100.`, // (ours)
  scalpTakeProfitRequired: 'Take Profit (%) is required.', // (ours)
  scalpTakeProfitRange: 'Take Profit (%) must be a number greater than 0 and at most 1000.', // (ours)
  strategyNameParamRequired: 'strategy_name is required.', // (ours)

  saved: 'Strategy saved successfully.',
  duplicateName: 'Strategy with the same name already exists',
  duplicateNameHint: 'Strategy with the same name already exists. Please choose a different name.',
  saveFailed: 'Failed to save strategy. Please try again.',
  loadFailed: 'Failed to load strategy details',
  updated: 'Strategy updated successfully',
  updateFailed: 'Failed to update strategy. Please try again.',
  inUse: 'The strategy is currently in Use, so it cannot be deleted.',
  deleted: 'Strategy deleted successfully',
  deleteFailed: (message: string) => `Failed to delete strategy: ${message}`,
  listFailed: 'Error loading strategies',
  emptyTitle: 'No strategies available',
  emptyLine: 'Create your first strategy to get started!',
  notFound: 'Strategy not found', // (ours)
  systemReadOnly: 'System strategies are read-only. Copy it into your strategies to edit it.', // (ours)
  gridCountFixed: 'The number of grids of a saved strategy cannot be changed.', // (ours)
  copied: 'Strategy copied to your strategies.', // (ours)
  inUseEditNote:
    'This strategy is used by a running bot. Your changes apply to bots started after you save; running bots keep the strategy they started with.', // (ours)
} as const;
