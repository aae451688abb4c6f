/**
 * The bot API's paths, written once: the server registers its routes with them and the web calls them, so a
 * search for a path (or its name here) finds both ends. The paths are the specification's and never change
 * (docs/spec/02-bots-wallet-account.md §7; docs/architecture.md §4).
 */

/** The two bot types; the Scalping twin of each per-kind path starts with `scalp`. */
export type BotKind = 'multigrid' | 'scalping';

/** 'Multigrid' / 'scalping' / 'SCALPING' → the kind; anything else is Multigrid. */
export function botKindOf(botType: string | null | undefined): BotKind {
  return botType?.toLowerCase().startsWith('scalp') ? 'scalping' : 'multigrid';
}

/** Paths that exist once per bot kind: Multigrid first, the Scalping twin second. */
export const botKindApiPaths = {
  multigrid: {
    start: '/api/startbotdata',
    /** The running bots' dashboard cards. */
    status: '/api/botstatus',
    pieChart: '/api/pichart',
    history: '/api/bothistory',
    info: '/api/botinfo',
    orderBook: '/api/orderbook',
    purchasedQty: '/api/purchasedQty',
    position: '/api/position',
    stop: '/api/stopbot',
    stopWithSell: '/api/stopbotwithsell',
    /** Ours: resumes a bot the runtime paused. */
    resume: '/api/resumebot',
    /** Ours: resumes a bot its pause price paused (it buys grid 1 at the market price). */
    resumePaused: '/api/resumepausedbot',
    /** Ours: adds USDT to a running bot's investment. */
    addFunds: '/api/addbotfunds',
  },
  scalping: {
    start: '/api/startscalp',
    status: '/api/scalpbotstatus',
    pieChart: '/api/scalppichart',
    history: '/api/scalpbothistory',
    info: '/api/scalpbotinfo',
    orderBook: '/api/scalporderbook',
    purchasedQty: '/api/scalppurchasedQty',
    position: '/api/scalpposition',
    stop: '/api/scalpstopbot',
    stopWithSell: '/api/scalpstopbotwithsell',
    resume: '/api/scalpresumebot',
    resumePaused: '/api/scalpresumepausedbot',
    addFunds: '/api/scalpaddbotfunds',
  },
} as const satisfies Record<BotKind, Record<string, string>>;

/** Paths shared by both bot kinds. */
export const botApiPaths = {
  minimumAmount: '/api/minimum-bot-amount',
  /** Ours: what would refuse a start with the chosen pair, type and strategy. */
  startCheck: '/api/startcheck',
  sltp: '/api/sltp',
  sltpEdit: '/api/sltpedit',
  overbuy: '/api/protectionvalues',
  overbuyEdit: '/api/gridprotectionadd',
  profitBook: '/api/profitbookat',
  profitBookEdit: '/api/editprofitbookat',
  /** Ours: CSV of one bot's fills. */
  fillsCsv: '/api/botfills.csv',
  /** Ours: CSV of the fills of the History tab's rows. */
  historyFillsCsv: '/api/historyfills.csv',
  profitTotals: '/api/totalprofitbookdata',
  /** Copy BOTs: the best running bots. */
  topBots: '/api/livebotdata',
  copyBotStrategy: '/api/copybotstrategy',
} as const;
