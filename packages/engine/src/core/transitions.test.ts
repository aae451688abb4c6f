import { describe, expect, it } from 'vitest';
import { InvariantError } from '../errors';
import { BOT_STATUS, CYCLE_STATUS, LOT_PHASE, transition } from './transitions';

describe('lifecycle tables', () => {
  it.each([
    ['Live', 'pause', 'Pause'],
    ['Live', 'stop', 'Stopped'],
    ['Pause', 'restart', 'Live'],
    ['Pause', 'stop', 'Stopped'],
    ['Pause', 'undo_pause', 'Live'],
    ['Stopped', 'undo_stop_from_live', 'Live'],
    ['Stopped', 'undo_stop_from_pause', 'Pause'],
  ] as const)('bot status %s --%s--> %s', (from, event, to) => {
    expect(transition(BOT_STATUS, 'bot', from, event)).toBe(to);
  });

  it.each([
    ['Live', 'restart'],
    ['Stopped', 'pause'],
    ['Stopped', 'restart'],
  ] as const)('bot status %s --%s--> is impossible', (from, event) => {
    expect(() => transition(BOT_STATUS, 'bot', from, event)).toThrow(InvariantError);
  });

  it.each([
    ['Open', 'arm', 'Armed'],
    ['Armed', 'raise_high', 'Armed'],
    ['Armed', 'trail_hit', 'Selling'],
    ['Open', 'sell_all', 'Selling'],
    ['Selling', 'filled', 'Closed'],
  ] as const)('lot %s --%s--> %s', (from, event, to) => {
    expect(transition(LOT_PHASE, 'lot', from, event)).toBe(to);
  });

  it('a lot cannot sell on its trail before it is armed, nor change once closed', () => {
    expect(() => transition(LOT_PHASE, 'lot', 'Open', 'trail_hit')).toThrow(InvariantError);
    expect(() => transition(LOT_PHASE, 'lot', 'Closed', 'arm')).toThrow(InvariantError);
  });

  it.each([
    ['WaitBuy', 'buy', 'Buying'],
    ['Buying', 'bought', 'Holding'],
    ['Buying', 'buy_failed', 'WaitBuy'],
    ['Holding', 'sell', 'Selling'],
    ['Holding', 'lot_dropped', 'WaitBuy'],
    ['Selling', 'sold_again', 'WaitBuy'],
    ['Selling', 'sold_last', 'Completed'],
    ['Selling', 'sold_stop', 'Stopped'],
    ['Selling', 'sell_failed', 'Holding'],
  ] as const)('cycle %s --%s--> %s', (from, event, to) => {
    expect(transition(CYCLE_STATUS, 'cycle', from, event)).toBe(to);
  });

  it('a completed cycle accepts nothing', () => {
    expect(() => transition(CYCLE_STATUS, 'cycle', 'Completed', 'buy')).toThrow(InvariantError);
  });
});
