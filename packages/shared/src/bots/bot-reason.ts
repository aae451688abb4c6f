/**
 * Why a bot is not trading, in the words every screen shows (the bot page, the dashboard card, History), and
 * the action that lets it continue. Derived from what the runtime records: `stopReason` (the engine's reason
 * for a stop) and `haltReason` (the runtime's reason for a pause it made: keys, failing orders, coins sold
 * outside the platform). A pause with neither is the bot's own pause price.
 */

/** The engine's stop reasons (`StopReason` of @gridbot/engine), with the words a user reads. */
export const STOP_REASON_TEXTS = {
  stoploss: 'Stopped by its stoploss price',
  /** A range grid's take-profit price (docs/trading-rules.md §2.6). */
  take_profit: 'Stopped at its take-profit price',
  profit_book: 'Stopped at its profit-book target',
  liquidated: 'Stopped: the futures position was liquidated',
  manual: 'Stopped by you',
  manual_sell: 'Stopped and sold by you',
  completed: 'Completed all its cycles',
} as const;
export type BotStopReason = keyof typeof STOP_REASON_TEXTS;
export const BOT_STOP_REASONS = Object.keys(STOP_REASON_TEXTS) as BotStopReason[];

/**
 * What a reason lets the user do: resume a runtime pause; a price pause is resumed at once (the bot page's
 * Resume) or by editing its price limits.
 */
export type BotReasonAction = 'resume' | 'edit_limits' | null;

export interface BotReason {
  /** One line: "Stopped by its stoploss price", "Paused by the system: …", "Paused at its pause price …". */
  text: string;
  action: BotReasonAction;
}

export interface BotReasonInput {
  status: 'Live' | 'Pause' | 'Stopping' | 'Stopped';
  haltReason?: string | null;
  stopReason?: string | null;
  /** The bot's pause and restart prices, for a bot its pause price paused. */
  pausePrice?: number | null;
  restartPrice?: number | null;
}

/** The words for a stop reason; an unknown one (a newer runtime) is shown as recorded. */
export function stopReasonText(stopReason: string): string {
  return STOP_REASON_TEXTS[stopReason as BotStopReason] ?? `Stopped: ${stopReason}`;
}

/** Why the bot is not trading and what continues it, or null for a bot that trades. */
export function botReasonOf(bot: BotReasonInput): BotReason | null {
  const halted = bot.haltReason ? bot.haltReason : null;
  if (bot.status === 'Stopped' || bot.status === 'Stopping') {
    if (bot.stopReason) return { text: stopReasonText(bot.stopReason), action: null };
    return halted ? { text: `Stopped while paused by the system: ${halted}`, action: null } : null;
  }
  if (halted) return { text: `Paused by the system: ${halted}`, action: 'resume' };
  if (bot.status !== 'Pause') return null;
  const at = bot.pausePrice ? ` ${bot.pausePrice}` : '';
  const restart = bot.restartPrice
    ? ` It restarts when the price falls to its restart price ${bot.restartPrice}.`
    : ' It has no restart price: resume it, or set one to let it trade again.';
  return { text: `Paused at its pause price${at}: everything was sold.${restart}`, action: 'edit_limits' };
}
