import { getMarketRules, money, SYMBOLS } from '@gridbot/shared';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { SimFeed } from './sim-feed';
import { SimModel } from './sim-model';

describe('SimFeed', () => {
  it('ticks every pair on spot and futures once per interval on the injected clock', async () => {
    const clock = new FakeClock();
    const feed = new SimFeed({ clock, seed: 7 });
    const ticks: number[] = [];
    feed.subscribe('ETHUSDT', 'future', (t) => void ticks.push(t.tsMs));
    await feed.start();
    clock.advance(5_000);
    expect(ticks).toHaveLength(5);
    expect(ticks[1]! - ticks[0]!).toBe(1000);
    await feed.stop();
    clock.advance(5_000);
    expect(ticks).toHaveLength(5);
  });

  it('gives the same prices for the same seed, rounded to each market’s tick', async () => {
    const run = async (seed: number) => {
      const clock = new FakeClock();
      const feed = new SimFeed({ clock, seed });
      await feed.start();
      clock.advance(30_000);
      return SYMBOLS.map((s) => feed.lastPrice(s, 'spot')!);
    };
    const a = await run(3);
    expect(await run(3)).toEqual(a);
    expect(await run(4)).not.toEqual(a);
    for (const [i, symbol] of SYMBOLS.entries()) {
      const tick = getMarketRules(symbol, 'spot').tickSize;
      expect(money(a[i]!).mod(tick).isZero()).toBe(true);
    }
  });

  it('has full charts from the first second for every interval, ending at the current price', async () => {
    const feed = new SimFeed({ clock: new FakeClock(), seed: 1 });
    for (const interval of ['1m', '15m', '1h', '1d'] as const) {
      const candles = await feed.candles('BTCUSDT', 'spot', interval, 500);
      expect(candles).toHaveLength(500);
      for (const c of candles) {
        expect(Number(c.high)).toBeGreaterThanOrEqual(Math.max(Number(c.open), Number(c.close)));
        expect(Number(c.low)).toBeLessThanOrEqual(Math.min(Number(c.open), Number(c.close)));
      }
      expect(candles[499]!.openTimeMs - candles[498]!.openTimeMs).toBeGreaterThan(0);
    }
    const ticker = await feed.ticker24h('BTCUSDT', 'spot');
    expect(Number(ticker.lastPrice)).toBeGreaterThan(0);
    expect(ticker.changePct).toMatch(/^-?\d+\.\d{2}$/);
  });

  it('moves alts with BTC and has fat-tailed returns', () => {
    const model = new SimModel(11, ['BTCUSDT', 'ETHUSDT']);
    const btc: number[] = [];
    const eth: number[] = [];
    let prev = [model.price('BTCUSDT', 'spot'), model.price('ETHUSDT', 'spot')];
    for (let i = 0; i < 20_000; i += 1) {
      model.step(60);
      const next = [model.price('BTCUSDT', 'spot'), model.price('ETHUSDT', 'spot')];
      btc.push(Math.log(next[0]! / prev[0]!));
      eth.push(Math.log(next[1]! / prev[1]!));
      prev = next;
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const mb = mean(btc);
    const me = mean(eth);
    let cov = 0;
    let vb = 0;
    let ve = 0;
    let m4 = 0;
    for (let i = 0; i < btc.length; i += 1) {
      cov += (btc[i]! - mb) * (eth[i]! - me);
      vb += (btc[i]! - mb) ** 2;
      ve += (eth[i]! - me) ** 2;
      m4 += (btc[i]! - mb) ** 4;
    }
    expect(cov / Math.sqrt(vb * ve)).toBeGreaterThan(0.7);
    const kurtosis = m4 / btc.length / (vb / btc.length) ** 2;
    expect(kurtosis).toBeGreaterThan(4);
    // 50 %/yr volatility → about 0.5 / sqrt(525600) per minute
    const minuteVol = Math.sqrt(vb / btc.length);
    expect(minuteVol).toBeGreaterThan(0.0004);
    expect(minuteVol).toBeLessThan(0.001);
  });
});
