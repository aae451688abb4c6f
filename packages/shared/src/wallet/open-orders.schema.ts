import { z } from 'zod';

/** Texts of the Open orders list (ours: the specification has no open orders screen). */
export const openOrderMessages = {
  orderCanceled: 'Order canceled',
  noOrder: 'There is no such open order on your exchange account.',
  cancelFailed: 'Canceling the order failed',
} as const;

/**
 * A running bot rests the order: canceling it under the bot would leave the bot waiting for a fill that never
 * comes, so the bot is stopped instead, which cancels its orders (ours).
 */
export function orderOfRunningBotMessage(symbol: string, botName: string): string {
  return `This ${symbol} order belongs to your running bot ${botName}. Stop the bot to cancel its orders.`;
}

/**
 * POST /api/cancelorder (ours): cancels one open order by its client order id. Any symbol the exchange holds
 * an order on, not only the platform's pairs: an order placed outside the platform may be on another pair.
 */
export const cancelOrderInputSchema = z.object({
  market: z.enum(['spot', 'future']),
  symbol: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{2,20}$/, 'Unknown pair')),
  clientOrderId: z.string().trim().min(1).max(64),
});
export type CancelOrderInput = z.input<typeof cancelOrderInputSchema>;

/** The bot an open order belongs to, read from its client order id (bot id + sequence). */
export interface OpenOrderBot {
  botId: string;
  /** How the user knows the bot, e.g. "ETHUSDT Spot · Range grid". */
  name: string;
  kind: 'multigrid' | 'scalping' | 'cycle' | 'range';
  status: string;
}

/** One open order of the user's exchange account (GET /api/openorders, ours). */
export interface OpenOrderView {
  market: 'spot' | 'future';
  symbol: string;
  clientOrderId: string;
  side: 'buy' | 'sell';
  /** Limit price; null for a market order still open. */
  price: string | null;
  quantity: string;
  filledQuantity: string;
  /** When the order was placed, epoch milliseconds. */
  createdMs: number;
  /** null: no bot of the user placed it ("no bot": placed outside the platform, or by a deleted bot). */
  bot: OpenOrderBot | null;
}

export interface OpenOrdersList {
  orders: OpenOrderView[];
  /** false on a live exchange while no keys are bound: nothing to list. */
  connected: boolean;
}
