// What other modules may use of this one; they import nothing else from it (docs/architecture.md §2).
export { type BotCommand, botCommandSchema } from './bot-command';
export { allowNewCycles, sendBotCommand } from './bot-commands.service';
export { BotStateCache } from './bot-state-cache';
export { engineStateOf, marketOf, priceOf, SparklineCache, statsAt } from './bot-summary';
export type { BotWriteListener, BotWritten } from './bot-writes';
export { history } from './bots.read';
export {
  type BotRow,
  ensureLease,
  findUserBot,
  hasFuturesBots,
  insertBot,
  listRunningBots,
  ownersOf,
  queueForRunningGridBots,
  runningBotOn,
} from './bots.repo';
export { botRoutes } from './bots.routes';
export { botIdOfClientOrderId, clientOrderIdOf } from './client-order-id';
export { botLabel, botsHolding, committedFunds, freePart, usdtBalances } from './committed-funds';
export { DashboardReads } from './dashboard.repo';
export { resumeAfterHalt } from './resume-bot.service';
export { runningWorkOf } from './running-work';
export { freeUsdt, startBot } from './start-bot.service';
