import { heldByBotsMessage, walletMessages } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { swapFormSchema } from './wallet-forms';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

describe('the swap form', () => {
  it('takes an amount up to the free balance', () => {
    expect(swapFormSchema('12.5').safeParse({ amount: '12.5' }).success).toBe(true);
  });

  it('refuses more than the free balance with the one message when no bot holds the coin', () => {
    expect(messageOf(swapFormSchema('12.5').safeParse({ amount: '12.6' }))).toBe(
      walletMessages.swapInvalidAmount,
    );
  });

  it('names the bots holding the rest when the amount reaches into their coins', () => {
    const held = { asset: 'XRP', bots: ["XRPUSDT Spot · Multigrid 'Tight'"] };
    expect(messageOf(swapFormSchema('0', held).safeParse({ amount: '100' }))).toBe(
      heldByBotsMessage('XRP', held.bots, '0'),
    );
    expect(heldByBotsMessage('XRP', held.bots, '0')).toBe(
      "XRP is held by your bot XRPUSDT Spot · Multigrid 'Tight'; only 0 XRP is free. Stop the bot first to use the rest.",
    );
  });
});
