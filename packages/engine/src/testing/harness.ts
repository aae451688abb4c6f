/**
 * Test helpers: simple market rules and a driver that steps a bot through a list of prices, filling
 * every intent at once at the tick price (as the backtest runner does) and logging what happened.
 */
import { applyFillDetailed, type EngineState, step } from '../engine';
import type { ClosedLot } from '../fills/ledger';
import { simulateFill } from '../fills/simulate-fill';
import type { EngineRules } from '../rules';
import type { Fill, Intent, Lot, Notice } from '../types';

/** Spot-like rules with round numbers: step 0.001, tick 0.01, min notional 5. */
export const TEST_RULES: EngineRules = {
  symbol: 'TESTUSDT',
  market: 'spot',
  tickSize: '0.01',
  stepSize: '0.001',
  minNotional: '5',
  stepDecimals: 3,
  minNotionalNum: 5,
  maintMarginRate: 0,
};

export const TEST_FUTURE_RULES: EngineRules = { ...TEST_RULES, market: 'future', maintMarginRate: 0.005 };

export interface TickLog<S extends EngineState> {
  price: number;
  timeMs: number;
  intents: readonly Intent[];
  fills: Fill[];
  opened: Lot[];
  closed: ClosedLot[];
  notices: readonly Notice[];
  state: S;
}

export interface RunOptions {
  feePct?: number;
  startMs?: number;
  stepMs?: number;
}

/** Steps `state` through `prices` (one tick each, `stepMs` apart), filling every intent immediately. */
export function runPrices<S extends EngineState>(
  state: S,
  prices: readonly number[],
  rules: EngineRules = TEST_RULES,
  options: RunOptions = {},
): { state: S; log: TickLog<S>[] } {
  const feePct = options.feePct ?? 0.1;
  const log: TickLog<S>[] = [];
  let s = state;
  prices.forEach((price, i) => {
    const timeMs = (options.startMs ?? 1_700_000_000_000) + i * (options.stepMs ?? 60_000);
    const r = step(s, { price, timeMs }, rules);
    s = r.state;
    const entry: TickLog<S> = {
      price,
      timeMs,
      intents: r.intents,
      fills: [],
      opened: [],
      closed: [],
      notices: r.notices ?? [],
      state: s,
    };
    for (const intent of r.intents) {
      const fill = simulateFill(intent, price, timeMs, feePct);
      const out = applyFillDetailed(s, fill);
      s = out.state;
      entry.fills.push(fill);
      if (out.opened) entry.opened.push(out.opened);
      entry.closed.push(...out.closed);
    }
    entry.state = s;
    log.push(entry);
  });
  return { state: s, log };
}

/** The intents of a run, flattened, as `type:grid(s)` strings for compact assertions. */
export function intentSummary(log: readonly TickLog<EngineState>[]): string[] {
  return log.flatMap((t) =>
    t.intents.map((i) =>
      i.type === 'MarketBuy'
        ? `@${t.price} buy g${i.grid} ${i.qty}`
        : `@${t.price} sell g${i.grids.join(',g')} ${i.qty}${i.type === 'SellLots' ? ` ${i.reason}` : ' liquidated'}`,
    ),
  );
}
