/** The bot kinds and their API paths live in `@gridbot/shared` (`bots.paths.ts`), beside the server's routes. */
export type { BotKind } from '@gridbot/shared';
export { botKindOf } from '@gridbot/shared';

/** docs/spec/02-bots-wallet-account.md §9: bot pages refresh every 10 s. */
export const BOT_REFRESH_MS = 10_000;
