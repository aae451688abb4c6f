/**
 * Golden backtests over real Binance candles (`fixtures/backtest`): each runs twice and must produce the
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
      candles: 'backtest/binance-spot-BTCUSDT-1m-20240402-20240407.csv.gz',
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

  it('Multigrid futures ETHUSDT ×3, 5–11 May 2025 (1m)', () => {
    const out = backtest({
      candles: 'backtest/binance-futures-ETHUSDT-1m-20250505-20250511.csv.gz',
      symbol: 'ETHUSDT',
      market: 'future',
      make: grid('multigrid-10.json', 1000, 'future', 3),
    });
    expect(out.summary).toMatchInlineSnapshot(`
      {
        "bookedProfit": 150.465466295,
        "fees": 17.229900305,
        "maxDrawdownPct": 6.390972,
        "openGrids": 5,
        "totalPnl": 139.529609695,
        "trades": 191,
        "unrealizedPnl": -10.9358566,
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
        "bookedProfit": 112.72374633,
        "fees": 7.19832254,
        "maxDrawdownPct": 50.439141,
        "openGrids": 5,
        "totalPnl": -14.95684254,
        "trades": 101,
        "unrealizedPnl": -127.68058887,
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
        "bookedProfit": -120.5329896165,
        "fees": 5.8832301165,
        "maxDrawdownPct": 19.439724,
        "openGrids": 0,
        "totalPnl": -120.5329896165,
        "trades": 6,
        "unrealizedPnl": 0,
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
        "bookedProfit": 77.5962748215,
        "fees": 5.0799801165,
        "maxDrawdownPct": 43.943578,
        "openGrids": 1,
        "totalPnl": -206.7670536165,
        "trades": 5,
        "unrealizedPnl": -284.363328438,
      }
    `);
  });
});
