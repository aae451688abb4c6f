/** The funding rates a futures backtest gets, by market source (MARKET_FEED, MARKET_FUNDING_PCT). */
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../config/env';
import { createFundingHistory } from './market-setup';

const H8 = 8 * 3_600_000;
const DAY = 86_400_000;
// 2024-01-01: before the shipped Binance rates (March–June 2025).
const JAN_1 = Date.UTC(2024, 0, 1);

describe('funding rates of futures backtests by market source', () => {
  it('the simulated market funds at MARKET_FUNDING_PCT where no real rates are shipped', async () => {
    const f = await createFundingHistory(parseEnv({ MARKET_FUNDING_PCT: '0.03' }));
    expect(await f.read({ symbol: 'BTCUSDT', from: JAN_1, to: JAN_1 + DAY })).toEqual({
      timeMs: [JAN_1, JAN_1 + H8, JAN_1 + 2 * H8],
      rate: [0.0003, 0.0003, 0.0003],
    });
  });

  it('the replay funds at its files, and at the paper rate for a pair without one', async () => {
    const f = await createFundingHistory(
      parseEnv({ MARKET_FEED: 'replay', MARKET_REPLAY_DIR: 'fixtures/backtest', MARKET_FUNDING_PCT: '0.01' }),
    );
    const mar10 = Date.UTC(2025, 2, 10);
    const btc = await f.read({ symbol: 'BTCUSDT', from: mar10, to: mar10 + DAY });
    expect(btc.timeMs).toHaveLength(3);
    expect(btc.rate).not.toEqual([0.0001, 0.0001, 0.0001]);
    const ada = await f.read({ symbol: 'ADAUSDT', from: mar10, to: mar10 + DAY });
    expect(ada.rate).toEqual([0.0001, 0.0001, 0.0001]);
  });
});
