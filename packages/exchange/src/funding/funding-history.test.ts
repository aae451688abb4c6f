/** Funding rates sent with futures candle history, per source (docs/trading-rules.md §2.2). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { FUNDING_INTERVAL_MS } from '@gridbot/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedFunding, replayFunding } from './funding-rates';

const shipped = resolve(__dirname, '../../../../fixtures/history');
const DAY = 86_400_000;
// The shipped BTCUSDT rates run from 2025-03-06 16:00 to 2025-06-03 00:00 UTC.
const MAR_10 = Date.UTC(2025, 2, 10);

describe('embedded funding rates', () => {
  it('serves the shipped Binance rates of the pair, three funding times a day', async () => {
    const f = await embeddedFunding(shipped, null).read({
      symbol: 'BTCUSDT',
      from: MAR_10,
      to: MAR_10 + DAY,
    });
    expect(f.timeMs).toHaveLength(3);
    // Binance's published times fall a few ms after 00:00, 08:00 and 16:00 UTC.
    for (const t of f.timeMs)
      expect(t - Math.floor(t / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS).toBeLessThan(1_000);
    expect(f.rate.every((r) => Math.abs(r) < 0.003)).toBe(true);
    expect(new Set(f.rate).size).toBeGreaterThan(1);
  });

  it('funds at the paper rate where the shipped rates do not reach, and not where they do', async () => {
    const h = embeddedFunding(shipped, 0.0001);
    const before = Date.UTC(2024, 0, 1);
    const f = await h.read({ symbol: 'BTCUSDT', from: before, to: before + DAY });
    expect(f).toEqual({
      timeMs: [before, before + FUNDING_INTERVAL_MS, before + 2 * FUNDING_INTERVAL_MS],
      rate: [0.0001, 0.0001, 0.0001],
    });
    const inside = await h.read({ symbol: 'BTCUSDT', from: MAR_10, to: MAR_10 + DAY });
    expect(inside).toEqual(
      await embeddedFunding(shipped, null).read({ symbol: 'BTCUSDT', from: MAR_10, to: MAR_10 + DAY }),
    );
    // A pair without shipped rates funds at the paper rate throughout.
    const ada = await h.read({ symbol: 'ADAUSDT', from: MAR_10, to: MAR_10 + DAY });
    expect(ada.rate).toEqual([0.0001, 0.0001, 0.0001]);
  });

  it('has no funding for a pair without shipped rates when no paper rate is configured', async () => {
    expect(
      await embeddedFunding(shipped, null).read({ symbol: 'ADAUSDT', from: MAR_10, to: MAR_10 + DAY }),
    ).toEqual({
      timeMs: [],
      rate: [],
    });
  });
});

describe('replay funding rates', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'funding-'));
    const csv = 'funding_time_ms,funding_rate\n28800004,0.0001\n57600002,-0.0002\n86400001,0.0003\n';
    await writeFile(join(dir, 'binance-futures-BTCUSDT-funding-8h-19700101-19700102.csv.gz'), gzipSync(csv));
    await writeFile(
      join(dir, 'binance-futures-BTCUSDT-1m-19700101-19700102.csv'),
      'open_time_ms,open,high,low,close,volume\n',
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads the funding file of the pair, cut to the period', async () => {
    expect(await replayFunding(dir).read({ symbol: 'BTCUSDT', from: 0, to: 86_400_000 })).toEqual({
      timeMs: [28800004, 57600002],
      rate: [0.0001, -0.0002],
    });
  });

  it('funds a pair without a file at the paper rate when one is configured', async () => {
    expect(await replayFunding(dir, 0.0001).read({ symbol: 'ETHUSDT', from: 1, to: DAY })).toEqual({
      timeMs: [FUNDING_INTERVAL_MS, 2 * FUNDING_INTERVAL_MS],
      rate: [0.0001, 0.0001],
    });
  });

  it('has no funding for a pair without a file', async () => {
    expect(await replayFunding(dir).read({ symbol: 'ETHUSDT', from: 0, to: 2 * DAY })).toEqual({
      timeMs: [],
      rate: [],
    });
  });
});
