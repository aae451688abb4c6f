/**
 * Golden backtests over real Binance candles (`fixtures/backtest`): each runs twice and must produce the
 * identical output (docs/contributing.md §3); the summaries are pinned so any change in trading behaviour shows.
 */
import { findMaintBrackets, getMarketRules } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { createGridBot } from '../core/grid-bot.state';
import type { EngineState } from '../engine';
import { compileRules } from '../rules';
import { createCycle } from '../strategies/cycle/cycle.state';
import { parseCycle } from '../strategies/cycle/parse-cycle';
import { strategyFrom } from '../strategies/parse-strategy';
import { loadCandles, readFixture } from '../testing/data';
import { runBacktest } from './run-backtest';

interface Case {
  candles: string;
  symbol: string;
  market: 'spot' | 'future';
  make: (startTimeMs: number, maint: number) => EngineState;
}

function grid(fixture: string, investment: number, market: 'spot' | 'future', leverage = 1) {
  return (startTimeMs: number, maintMarginRate: number) =>
    createGridBot({
      params: strategyFrom(readFixture(fixture)),
      investment,
      market,
      leverage,
      startTimeMs,
      maintMarginRate,
      maintBrackets: market === 'future' ? findMaintBrackets('ETHUSDT') : undefined,
    });
}

function cycle(fixture: string) {
  return (startTimeMs: number) => {
    const parsed = parseCycle(readFixture(fixture));
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return createCycle({ params: parsed.value.params, market: 'spot', startTimeMs });
  };
}

function backtest(c: Case) {
  const candles = loadCandles(c.candles);
  const rules = compileRules(getMarketRules(c.symbol, c.market));
  const feePct = c.market === 'spot' ? 0.1 : 0.05;
  const run = () => {
    const r = runBacktest(c.make(candles.openTimeMs[0] as number, rules.maintMarginRate), candles, rules, {
      feePct,
    });
    return JSON.stringify({ fills: r.fills, summary: r.summary });
  };
  const first = run();
  expect(run()).toBe(first);
  return JSON.parse(first) as { fills: unknown[]; summary: unknown };
}

// Up to two weeks of 1m candles, each run twice: generous time for a busy machine.
describe('golden backtests on real candles', { timeout: 60_000 }, () => {
  it('Multigrid spot BTCUSDT, 2–7 Apr 2024 (1m)', () => {
    const out = backtest({
      candles: 'backtest/binance-spot-BTCUSDT-1m-20240402-20240407.csv.gz',
      symbol: 'BTCUSDT',
      market: 'spot',
      make: grid('multigrid-5.json', 1000, 'spot'),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "aprPct": 163.693527,
        "bookedProfit": 24.8500190834,
        "buyAndHoldPct": -0.987512,
        "endMs": 1712448420000,
        "fees": 5.2200860359,
        "funding": 0,
        "investment": 1000,
        "lastSkippedBuy": null,
        "maxDrawdownPct": 4.651581,
        "openGrids": 2,
        "roiPct": 2.244557,
        "sharpe": 3.8104,
        "skippedBuys": 0,
        "sortino": 6.2852,
        "startMs": 1712016000000,
        "stopReason": null,
        "timeInMarketPct": 100,
        "totalPnl": 22.445571713715,
        "trades": 26,
        "unrealizedPnl": -2.404447369685,
      }
    `);
  });

  it('Multigrid futures ETHUSDT ×3, 5–11 May 2025 (1m)', () => {
    const out = backtest({
      candles: 'backtest/binance-futures-ETHUSDT-1m-20250505-20250511.csv.gz',
      symbol: 'ETHUSDT',
      market: 'future',
      make: grid('multigrid-10.json', 1000, 'future', 3),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "aprPct": 914.637896,
        "bookedProfit": 186.02568316,
        "buyAndHoldPct": 39.029908,
        "endMs": 1747008000000,
        "fees": 17.98023687,
        "funding": 0,
        "investment": 1000,
        "lastSkippedBuy": null,
        "maxDrawdownPct": 4.751353,
        "openGrids": 5,
        "roiPct": 17.541001,
        "sharpe": 19.5221,
        "skippedBuys": 0,
        "sortino": null,
        "startMs": 1746403200000,
        "stopReason": null,
        "timeInMarketPct": 100,
        "totalPnl": 175.41000739,
        "trades": 207,
        "unrealizedPnl": -10.61567577,
      }
    `);
  });

  it('Scalping spot DOGEUSDT through the 19 May 2021 crash (1m)', () => {
    const out = backtest({
      candles: 'backtest/binance-spot-DOGEUSDT-1m-20210513-20210520.csv.gz',
      symbol: 'DOGEUSDT',
      market: 'spot',
      make: grid('scalping-5.json', 500, 'spot'),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "aprPct": -118.314007,
        "bookedProfit": 117.28267632,
        "buyAndHoldPct": 1.813908,
        "endMs": 1621543200000,
        "fees": 8.74413064,
        "funding": 0,
        "investment": 500,
        "lastSkippedBuy": null,
        "maxDrawdownPct": 49.947358,
        "openGrids": 5,
        "roiPct": -2.548163,
        "sharpe": -2.5292,
        "skippedBuys": 0,
        "sortino": -3.2829,
        "startMs": 1620864000000,
        "stopReason": null,
        "timeInMarketPct": 100,
        "totalPnl": -12.74081584276,
        "trades": 119,
        "unrealizedPnl": -130.02349216276,
      }
    `);
  });

  it('Cycle with a stop loss through the 19 May 2021 BTC crash (1m)', () => {
    const out = backtest({
      candles: 'backtest/binance-spot-BTCUSDT-1m-20210506-20210520.csv.gz',
      symbol: 'BTCUSDT',
      market: 'spot',
      make: cycle('cycle-stoploss.json'),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "aprPct": -321.19558,
        "bookedProfit": -131.04063,
        "buyAndHoldPct": -30.141578,
        "endMs": 1621543260000,
        "fees": 5.86943,
        "funding": 0,
        "investment": 1000,
        "lastSkippedBuy": null,
        "maxDrawdownPct": 19.611257,
        "openGrids": 0,
        "roiPct": -13.078209,
        "sharpe": -5.9609,
        "skippedBuys": 0,
        "sortino": -6.1233,
        "startMs": 1620259200000,
        "stopReason": "stoploss",
        "timeInMarketPct": 44.647446,
        "totalPnl": -130.782089257542,
        "trades": 6,
        "unrealizedPnl": 0.258540742458,
      }
    `);
  });

  it('Cycle without a stop loss through the same crash', () => {
    const out = backtest({
      candles: 'backtest/binance-spot-BTCUSDT-1m-20210506-20210520.csv.gz',
      symbol: 'BTCUSDT',
      market: 'spot',
      make: cycle('cycle-no-stoploss.json'),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "aprPct": -534.502714,
        "bookedProfit": 67.01172,
        "buyAndHoldPct": -30.141578,
        "endMs": 1621543260000,
        "fees": 5.06708,
        "funding": 0,
        "investment": 1000,
        "lastSkippedBuy": null,
        "maxDrawdownPct": 44.331328,
        "openGrids": 1,
        "roiPct": -21.763494,
        "sharpe": -9.3474,
        "skippedBuys": 0,
        "sortino": -8.7855,
        "startMs": 1620259200000,
        "stopReason": null,
        "timeInMarketPct": 71.791038,
        "totalPnl": -217.634942664342,
        "trades": 5,
        "unrealizedPnl": -284.646662664342,
      }
    `);
  });
});
