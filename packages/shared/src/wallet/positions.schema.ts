import { z } from 'zod';
import { pairField } from './wallet.schema';

/** Texts of the Positions panel (ours: the specification has no positions screen). */
export const positionMessages = {
  positionClosed: 'Position closed',
  noPosition: 'There is no open position on this pair.',
  closeFailed: 'Closing the position failed',
} as const;

/**
 * A running bot trades the position: closing it under the bot would leave the bot's lots without coins, so
 * the bot is stopped with a sale instead (ours).
 */
export function positionTradedByBotMessage(symbol: string, botName: string): string {
  return `${symbol} is traded by your running bot ${botName}. Stop it with "sell" to close its position.`;
}

/** What holds USDT of a wallet that cannot be moved: a bot's reserve, or an open position's margin. */
export type HeldUsdt =
  | { kind: 'bot'; name: string; usdt: string }
  | { kind: 'position'; symbol: string; usdt: string };

/**
 * What holds the untransferable part of a wallet, in words (ours): the transfer dialog shows them and a
 * refused transfer answers them, so the user knows what to stop or close first.
 */
export function heldUsdtParts(
  held: readonly HeldUsdt[],
  format: (usdt: string) => string = (usdt) => usdt,
): string[] {
  return held
    .filter((h) => Number(h.usdt) > 0)
    .map((h) =>
      h.kind === 'bot'
        ? `${format(h.usdt)} USDT kept for the next buys of your bot ${h.name}`
        : `${format(h.usdt)} USDT margin of the open ${h.symbol} position`,
    );
}

/** POST /api/closeposition (ours): closes the whole long of a pair with a reduce-only market sell. */
export const closePositionInputSchema = z.object({ symbol: pairField });
export type ClosePositionInput = z.input<typeof closePositionInputSchema>;

/** The bot a position belongs to: a running futures bot on the pair, or the last one stopped without a sale. */
export interface PositionBot {
  botId: string;
  /** How the user knows the bot, e.g. "ETHUSDT Future · Multigrid 'Tight'". */
  name: string;
  status: string;
}

/** One open futures position of the user's exchange account (GET /api/positions, ours). */
export interface PositionView {
  symbol: string;
  /** One-way position: a long, or a short (the paper exchange holds shorts of short and neutral grids). */
  side: 'long' | 'short';
  quantity: string;
  entryPrice: string;
  markPrice: string | null;
  leverage: number;
  /** USDT held by the position as isolated margin: not transferable while it is open. */
  margin: string;
  liquidationPrice: string;
  unrealizedPnl: string | null;
  /** null: no bot of the user trades or left this position ("no bot"). */
  bot: PositionBot | null;
}

export interface PositionsList {
  positions: PositionView[];
  /** false on Binance while no keys are bound: nothing to list. */
  connected: boolean;
}
