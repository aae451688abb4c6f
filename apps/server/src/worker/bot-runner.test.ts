import type { Db } from '@gridbot/db';
import { compileRules, createGridBot, type EngineState } from '@gridbot/engine';
import type { Exchange } from '@gridbot/exchange';
import { getMarketRules } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { simpleMultigrid } from '../testing/bot-fixtures';
import type { BotRunnerDeps } from './bot-context';
import { BotRunner } from './bot-runner';
import type { RuntimeWrites } from './runtime-writes';

const identity = { botId: 'b1', userId: 'u1', symbol: 'ETHUSDT', market: 'spot' as const, baseAsset: 'ETH' };
const rules = compileRules(getMarketRules('ETHUSDT', 'spot'));

/** A runner whose database and exchange fail the test if touched (the exchange's venue is a constant, not a call). */
function runnerOf(state: EngineState) {
  const untouchableOf = (constants: Record<string, unknown>) =>
    new Proxy(constants, {
      get: (target, key) => {
        if (typeof key === 'string' && key in target) return target[key];
        throw new Error(`unexpected call: ${String(key)}`);
      },
    });
  const untouchable = untouchableOf({});
  const events: string[] = [];
  const deps: BotRunnerDeps = {
    db: untouchable as unknown as Db,
    writes: untouchable as unknown as RuntimeWrites,
    exchange: untouchableOf({ venue: 'paper' }) as unknown as Exchange,
    now: () => 0,
    log: (message) => events.push(message),
    onFinished: (botId) => events.push(`finished ${botId}`),
    onBroken: (botId) => events.push(`broken ${botId}`),
  };
  return { runner: new BotRunner(identity, state, rules, deps), events };
}

describe('bot runner ticks', () => {
  const fresh = createGridBot({
    params: simpleMultigrid,
    investment: 1000,
    market: 'spot',
    leverage: 1,
    startTimeMs: 0,
  });

  it('takes a tick that sends nothing without touching the database or the exchange', () => {
    // A paused bot holding nothing buys nothing and sells nothing.
    const { runner, events } = runnerOf({ ...fresh, status: 'Pause' });
    expect(runner.onTick(1995, 1)).toBeUndefined();
    expect(events).toEqual([]);
  });

  it('reloads the bot when the engine throws on a tick, and does not throw into the feed', () => {
    // A state that makes the engine throw as soon as it reads it.
    const broken = Object.defineProperty({ ...fresh }, 'quiet', {
      get: () => {
        throw new Error('corrupt state');
      },
    }) as EngineState;
    const { runner, events } = runnerOf(broken);
    expect(() => runner.onTick(2000, 1)).not.toThrow();
    expect(events).toEqual(['bot task failed; reloading the bot from the database', 'broken b1']);
    expect(runner.finished).toBe(true);
    // A finished runner ignores further ticks.
    expect(runner.onTick(2000, 2)).toBeUndefined();
    expect(events).toHaveLength(2);
  });
});
