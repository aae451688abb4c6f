/** The running-bot calls of docs/spec/02-bots-wallet-account.md §7, per bot kind (`/api/…` and the `/api/scalp…` twins). */
export type BotKind = 'multigrid' | 'scalping';

export const botPaths = {
  multigrid: {
    start: '/api/startbotdata',
    info: '/api/botinfo',
    orderBook: '/api/orderbook',
    purchasedQty: '/api/purchasedQty',
    position: '/api/position',
    stop: '/api/stopbot',
    stopWithSell: '/api/stopbotwithsell',
    resume: '/api/resumebot', // (ours: a bot the runtime paused)
    screen: '/running-bot',
  },
  scalping: {
    start: '/api/startscalp',
    info: '/api/scalpbotinfo',
    orderBook: '/api/scalporderbook',
    purchasedQty: '/api/scalppurchasedQty',
    position: '/api/scalpposition',
    stop: '/api/scalpstopbot',
    stopWithSell: '/api/scalpstopbotwithsell',
    resume: '/api/scalpresumebot', // (ours)
    screen: '/scalp-running-bot',
  },
} as const satisfies Record<BotKind, Record<string, string>>;

/** docs/spec/02-bots-wallet-account.md §9: bot pages refresh every 10 s. */
export const BOT_REFRESH_MS = 10_000;

/** 'Multigrid' / 'scalping' / 'SCALPING' → the kind; anything else is Multigrid. */
export function botKindOf(botType: string | null | undefined): BotKind {
  return botType?.toLowerCase().startsWith('scalp') ? 'scalping' : 'multigrid';
}
