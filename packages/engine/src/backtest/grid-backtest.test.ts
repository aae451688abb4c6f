import { describe, expect, it } from 'vitest';
import { readFixture } from '../testing/data';
import { startGridBacktest } from './grid-backtest';

const strategy = readFixture('multigrid-5.json');
const base = { strategy, symbol: 'BTCUSDT', category: 'spot' as const, investment: 1000 };

describe('the start of a grid backtest (shared by the CLI and the browser)', () => {
  it('creates the bot at the first candle with the market fee and the settings given', () => {
    const start = startGridBacktest(
      { ...base, stoplossPrice: 60_000, profitBookPct: 20 },
      1_700_000_000_000,
      65_000,
    );
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    expect(start.feePct).toBe(0.1);
    expect(start.state.settings).toMatchObject({
      stoplossPrice: 60_000,
      profitBookPct: 20,
      pausePrice: null,
    });
    expect(start.state.account.investment).toBe(1000);
    const future = startGridBacktest({ ...base, category: 'future', leverage: 3 }, 1_700_000_000_000, 65_000);
    expect(future.ok && future.feePct).toBe(0.05);
  });

  it('says why it cannot start: unknown pair, invalid strategy, or an amount the start checks refuse', () => {
    expect(startGridBacktest({ ...base, symbol: 'FOOUSDT' }, 0, 1)).toMatchObject({
      ok: false,
      stage: 'symbol',
    });
    expect(startGridBacktest({ ...base, strategy: { type: 'multigrid' } }, 0, 65_000)).toMatchObject({
      ok: false,
      stage: 'strategy',
    });
    expect(startGridBacktest({ ...base, investment: 1 }, 0, 65_000)).toMatchObject({
      ok: false,
      stage: 'start',
    });
  });
});
