import { notificationPathOf } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { bodyOf, itemOf } from './notification-text';

describe('bot notification texts', () => {
  it('names a range grid as a grid, with its take-profit stop in words', () => {
    const payload = { symbol: 'SOLUSDT', category: 'Spot', botType: 'range', reason: 'take_profit' };
    expect(bodyOf('bot_stopped', payload)).toBe(
      'Your SOLUSDT Spot grid stopped: its take-profit price was reached.',
    );
    expect(bodyOf('bot_stopped', { ...payload, botType: 'multigrid', reason: 'stoploss' })).toBe(
      'Your SOLUSDT Spot bot stopped: its stoploss price was reached.',
    );
    const item = itemOf({
      id: 7,
      userId: 'u',
      type: 'bot_paused',
      botId: 'b',
      payload: { ...payload, reason: "The grid's order was refused: insufficient balance" },
      createdAt: new Date('2026-01-02T03:04:05Z'),
      readAt: null,
    });
    expect(item).toMatchObject({
      botType: 'range',
      body: "Your SOLUSDT Spot grid is paused: The grid's order was refused: insufficient balance",
    });
    // The bell and the messages link to the grid's own page.
    expect(notificationPathOf(item)).toBe('/grid-bot/b');
  });
});
