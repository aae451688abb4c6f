/**
 * Golden backtests over real Binance candles (../shared/data): each runs twice and must produce the
 * identical output (STYLE §3); the summaries are pinned so any change in trading behaviour shows.
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

// Whole months of 1m candles: generous time for a busy machine.
describe('golden backtests on real candles', { timeout: 60_000 }, () => {
  it('Multigrid spot BTCUSDT, 2–7 Apr 2024 (1m)', () => {
    const out = backtest({
      candles: 'binance-spot-BTCUSDT-1m-20240402-20240407.csv.gz',
      symbol: 'BTCUSDT',
      market: 'spot',
      make: grid('multigrid-5.json', 1000, 'spot'),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "apyPct": 166.682547,
        "bookedProfit": 25.1584356355,
        "buyAndHoldPct": -0.987512,
        "endMs": 1712448420000,
        "fees": 5.2227936592,
        "funding": 0,
        "investment": 1000,
        "lastSkippedBuy": null,
        "maxDrawdownPct": 4.655249,
        "openGrids": 2,
        "roiPct": 2.285542,
        "sharpe": 3.5441,
        "skippedBuys": 0,
        "sortino": 5.7505,
        "startMs": 1712016000000,
        "stopReason": null,
        "timeInMarketPct": 100,
        "totalPnl": 22.8554246408,
        "trades": 26,
        "unrealizedPnl": -2.3030109947,
      }
    `);
  });

  it('Multigrid futures ETHUSDT ×3, May–June 2025 (1m)', () => {
    const out = backtest({
      candles: 'binance-futures-ETHUSDT-1m-20250504-20250615.csv.gz',
      symbol: 'ETHUSDT',
      market: 'future',
      make: grid('multigrid-10.json', 1000, 'future', 3),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "apyPct": 359.931359,
        "bookedProfit": 581.789968425,
        "buyAndHoldPct": 37.809543,
        "endMs": 1749984240000,
        "fees": 48.35780386,
        "funding": 0,
        "investment": 1000,
        "lastSkippedBuy": null,
        "maxDrawdownPct": 16.927712,
        "openGrids": 9,
        "roiPct": 41.218852,
        "sharpe": 5.0162,
        "skippedBuys": 0,
        "sortino": 8.1168,
        "startMs": 1746372780000,
        "stopReason": null,
        "timeInMarketPct": 100,
        "totalPnl": 412.18851614,
        "trades": 417,
        "unrealizedPnl": -169.601452285,
      }
    `);
  });

  it('Scalping spot DOGEUSDT through the 19 May 2021 crash (1m)', () => {
    const out = backtest({
      candles: 'binance-spot-DOGEUSDT-1m-20210420-20210520.csv.gz',
      symbol: 'DOGEUSDT',
      market: 'spot',
      make: grid('scalping-5.json', 500, 'spot'),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "apyPct": 274.687117,
        "bookedProfit": 319.99168271,
        "buyAndHoldPct": 26.329564,
        "endMs": 1621543200000,
        "fees": 23.71247666,
        "funding": 0,
        "investment": 500,
        "lastSkippedBuy": null,
        "maxDrawdownPct": 43.66752,
        "openGrids": 5,
        "roiPct": 22.576501,
        "sharpe": 2.3286,
        "skippedBuys": 0,
        "sortino": 3.6278,
        "startMs": 1618951260000,
        "stopReason": null,
        "timeInMarketPct": 100,
        "totalPnl": 112.88250334,
        "trades": 317,
        "unrealizedPnl": -207.10917937,
      }
    `);
  });

  it('Cycle with a stop loss through the 19 May 2021 BTC crash (1m)', () => {
    const out = backtest({
      candles: 'binance-spot-BTCUSDT-1m-20210420-20210520.csv.gz',
      symbol: 'BTCUSDT',
      market: 'spot',
      make: cycle('cycle-stoploss.json'),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "apyPct": -77.250936,
        "bookedProfit": -63.49245,
        "buyAndHoldPct": -29.28298,
        "endMs": 1621543260000,
        "fees": 9.94245,
        "funding": 0,
        "investment": 1000,
        "lastSkippedBuy": null,
        "maxDrawdownPct": 18.475275,
        "openGrids": 0,
        "roiPct": -6.349245,
        "sharpe": -0.7275,
        "skippedBuys": 0,
        "sortino": -1.1403,
        "startMs": 1618951320000,
        "stopReason": "stoploss",
        "timeInMarketPct": 60.809278,
        "totalPnl": -63.49245,
        "trades": 10,
        "unrealizedPnl": 0,
      }
    `);
  });

  it('Cycle without a stop loss through the same crash', () => {
    const out = backtest({
      candles: 'binance-spot-BTCUSDT-1m-20210420-20210520.csv.gz',
      symbol: 'BTCUSDT',
      market: 'spot',
      make: cycle('cycle-no-stoploss.json'),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "apyPct": -182.171476,
        "bookedProfit": 134.6604,
        "buyAndHoldPct": -29.28298,
        "endMs": 1621543260000,
        "fees": 9.1392,
        "funding": 0,
        "investment": 1000,
        "lastSkippedBuy": null,
        "maxDrawdownPct": 41.763436,
        "openGrids": 1,
        "roiPct": -14.972651,
        "sharpe": -1.7064,
        "skippedBuys": 0,
        "sortino": -2.3707,
        "startMs": 1618951320000,
        "stopReason": null,
        "timeInMarketPct": 74.256349,
        "totalPnl": -149.726514,
        "trades": 9,
        "unrealizedPnl": -284.386914,
      }
    `);
  });
});
