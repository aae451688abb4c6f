import { describe, expect, it } from 'vitest';
import { botMessages } from '../bots/bots.messages';
import { startBotInputSchema } from '../bots/start-bot.schema';
import { cycleMessages } from '../cycles/cycles.messages';
import { startCycleInputSchema } from '../cycles/cycles.schema';
import { platformMessages } from '../platform/platform.messages';
import { simulatedDepositInputSchema } from '../platform/platform.schema';
import { strategyMessages } from '../strategies/strategy.messages';
import { multigridStrategySchema } from '../strategies/strategy.schema';
import { firstIssueMessage } from './fields';
import { readNumberText } from './number-text';

describe('readNumberText: what counts as a typed number', () => {
  it.each([
    ['25', 25],
    ['0.5', 0.5],
    ['.5', 0.5],
    ['5.', 5],
    [' 12 ', 12],
    [7, 7],
  ])('reads %j as %j', (text, n) => expect(readNumberText(text)).toBe(n));

  it.each(['-3', '+3', '1e12', '1E3', '0x10', '1,000', '1 000', 'abc', 'Infinity', '2..5'])(
    'refuses %j instead of reading another number from it',
    (text) => expect(readNumberText(text)).toBeNull(),
  );

  it('takes blank as absent', () => {
    expect(readNumberText('  ')).toBeUndefined();
    expect(readNumberText(null)).toBeUndefined();
  });

  it('refuses a fraction where a whole number is asked for', () => {
    expect(readNumberText('2.5', { integer: true })).toBeNull();
    expect(readNumberText(2.5, { integer: true })).toBeNull();
    expect(readNumberText('25', { integer: true })).toBe(25);
  });
});

const startBot = {
  category: 'Spot',
  selectPair: 'BTCUSDT',
  myStrategy: 'steady',
  amount: '500',
};

function messageOf(result: { success: boolean; error?: unknown }) {
  expect(result.success).toBe(false);
  return firstIssueMessage(result.error as never);
}

describe('every numeric field refuses signs, exponents and stray characters with its message', () => {
  it.each(['1e3', '-500', '5OO'])('start bot amount %j', (amount) => {
    expect(messageOf(startBotInputSchema.safeParse({ ...startBot, amount }))).toBe(botMessages.amountNumber);
  });

  it.each([
    ['stoplossPrice', '1e5', botMessages.stoplossNumber],
    ['restartPrice', '-2', botMessages.restartNumber],
    ['sellPausePrice', '9e9', botMessages.sellPauseNumber],
  ])('start bot %s %j', (field, value, message) => {
    expect(messageOf(startBotInputSchema.safeParse({ ...startBot, [field]: value }))).toBe(message);
  });

  it.each(['2.5', '100', '-3', '1e1'])('number of grids %j', (noOfGrids) => {
    const result = multigridStrategySchema.safeParse({ strategyName: 'a', noOfGrids, tableData: [] });
    expect(messageOf(result)).toBe(strategyMessages.gridsMultigrid);
  });

  it.each([
    ['-5', platformMessages.amountPositive],
    ['1e12', platformMessages.amountNumber],
    ['200000', platformMessages.simulatedDepositMax],
  ])('simulated deposit %j', (amount, message) => {
    expect(messageOf(simulatedDepositInputSchema.safeParse({ token: 'USDT', amount }))).toBe(message);
  });

  it('cycle count "1e1"', () => {
    const result = startCycleInputSchema.safeParse({ cycleCount: '1e1' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(cycleMessages.cycleCountRange);
  });
});
