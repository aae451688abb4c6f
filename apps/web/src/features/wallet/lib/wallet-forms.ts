import { heldByBotsMessage, swapInputSchema, transferInputSchema, walletMessages } from '@gridbot/shared';
import { z } from 'zod';
import { exceeds } from './amounts';

/**
 * Internal Transfers: the shared amount rule, then docs/spec/02-bots-wallet-account.md §5 — not above the source's transferable
 * balance. The balance is not part of the payload, so the rule is built around the figure on screen.
 */
export function transferFormSchema(transferable: string | undefined) {
  return z
    .object({ amount: transferInputSchema.shape.amount })
    .refine((v) => !exceeds(v.amount, transferable), {
      path: ['amount'],
      message: walletMessages.amountExceedsTransferable,
    });
}
export type TransferFormInput = z.input<ReturnType<typeof transferFormSchema>>;
export type TransferFormOutput = z.output<ReturnType<typeof transferFormSchema>>;

/**
 * Swap to USDT (docs/spec/02-bots-wallet-account.md §5): present, above 0 and not above the available balance, else
 * one message; above the free part while running bots hold the rest, the message the server would give, naming them.
 */
export function swapFormSchema(
  available: string | undefined,
  held?: { asset: string; bots: readonly string[] },
) {
  return z.object({ amount: swapInputSchema.shape.amount }).superRefine((v, ctx) => {
    if (available !== undefined && !exceeds(v.amount, available)) return;
    const message =
      held && held.bots.length > 0 && available !== undefined
        ? heldByBotsMessage(held.asset, held.bots, available)
        : walletMessages.swapInvalidAmount;
    ctx.addIssue({ code: 'custom', path: ['amount'], message });
  });
}
export type SwapFormInput = z.input<ReturnType<typeof swapFormSchema>>;
export type SwapFormOutput = z.output<ReturnType<typeof swapFormSchema>>;
