/**
 * Golden backtests over real Binance candles (../shared/data): each runs twice and must produce the
 * identical output (STYLE §3); the summaries are pinned so any change in trading behaviour shows.
 */
import { getMarketRules } from '@gridbot/shared';
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

describe('golden backtests on real candles', () => {
  it('Multigrid spot BTCUSDT, 2–7 Apr 2024 (1m)', () => {
    const out = backtest({
      candles: 'binance-spot-BTCUSDT-1m-20240402-20240407.csv.gz',
      symbol: 'BTCUSDT',
      market: 'spot',
      make: grid('multigrid-5.json', 1000, 'spot'),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "bookedProfit": 17.6722417257,
        "fees": 4.0128307153,
        "maxDrawdownPct": 5.177018,
        "openGrids": 2,
        "totalPnl": 15.2306147847,
        "trades": 20,
        "unrealizedPnl": -2.441626941,
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
        "bookedProfit": 520.357520815,
        "fees": 47.59290221,
        "maxDrawdownPct": 20.930538,
        "openGrids": 9,
        "totalPnl": 351.57499779,
        "trades": 403,
        "unrealizedPnl": -168.782523025,
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
        "bookedProfit": 549.6795580351,
        "fees": 36.1238411349,
        "maxDrawdownPct": 42.830239,
        "openGrids": 5,
        "totalPnl": 421.9989691651,
        "trades": 475,
        "unrealizedPnl": -127.68058887,
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
        "bookedProfit": -41.6843508195,
        "fees": 9.9648975195,
        "maxDrawdownPct": 18.131358,
        "openGrids": 0,
        "totalPnl": -41.6843508195,
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
        "bookedProfit": 156.4449136185,
        "fees": 9.1616475195,
        "maxDrawdownPct": 40.98601,
        "openGrids": 1,
        "totalPnl": -127.9184148195,
        "trades": 9,
        "unrealizedPnl": -284.363328438,
      }
    `);
  });
});
