import { type MarketKind, SYMBOLS } from '@gridbot/shared';
import { type CandleInterval, INTERVAL_MS, type MarketFeed } from '../market-feed';
import type { HistoryProvider } from './candle-book';
import { type Clock, systemClock } from './clock';
import { FeedCore } from './feed-core';
import {
  aggregateCandles,
  type CandleFile,
  candleTicks,
  listCandleFiles,
  matchingFiles,
  readCandleFile,
} from './replay-files';
import { SimModel } from './sim-model';

export interface ReplayFeedOptions {
  /** Directory of candle CSVs (`MARKET_REPLAY_DIR`). */
  dir: string;
  /** How many times faster than real time (`MARKET_SPEED`). Default 1. */
  speed?: number;
  clock?: Clock;
  /** How often due ticks are published, in wall-clock ms. Default 20. */
  pollMs?: number;
  symbols?: readonly string[];
  /** Candles of each file kept before the replay start, so charts have history. Default 500. */
  warmupCandles?: number;
  /** Start again from the beginning at the end of a file (timestamps keep increasing). Default true. */
  loop?: boolean;
  /** Seed of the sim that feeds symbols without a file. */
  seed?: number;
  onSubscriberError?: (error: unknown) => void;
}

interface Stream {
  symbol: string;
  market: MarketKind;
  file: CandleFile;
  startIndex: number;
  /** Next candle and which of its four ticks. */
  index: number;
  sub: number;
  /** Added to file times: grows by the file's span at every loop. */
  offsetMs: number;
  /**
   * How much later (replayed ms, less than one tick's spacing) this stream publishes each tick. Exchange
   * streams do not tick in step, so the streams' ticks are spread over the spacing instead of arriving
   * together; tick times stay the candles' own.
   */
  phaseMs: number;
}

/**
 * Historical replay (`MARKET_FEED=replay`): each candle of a file becomes four ticks, its path points
 * (docs/trading-rules.md §2.5), spread over the candle, played `speed` times faster than real time. The bot runtime
 * walks the straight lines between them as the backtest does, so a paper bot on a replay acts where it does. Futures without a file follow
 * the spot file (and spot follows a futures file); symbols without any file come from the sim.
 * Tick times are the candles' historical times; the streams publish them at staggered moments (`phaseMs`).
 */
export class ReplayFeed implements MarketFeed {
  readonly kind = 'replay' as const;
  private readonly clock: Clock;
  private readonly speed: number;
  private readonly core: FeedCore;
  private readonly streams = new Map<string, Stream>();
  private sim: SimModel | undefined;
  private simSymbols: string[] = [];
  private loaded = false;
  private startWallMs = 0;
  private cancelTimers: Array<() => void> = [];

  constructor(private readonly options: ReplayFeedOptions) {
    this.clock = options.clock ?? systemClock;
    this.speed = options.speed ?? 1;
    this.core = new FeedCore(
      this.clock,
      (symbol, market) => this.history(symbol, market),
      options.onSubscriberError,
    );
  }

  symbols(): readonly string[] {
    return this.options.symbols ?? SYMBOLS;
  }

  /** Which file feeds each stream (`market:symbol` → file name, or 'sim'); loads the files on first call. */
  async sources(): Promise<Record<string, string>> {
    await this.load();
    const out: Record<string, string> = {};
    for (const symbol of this.symbols()) {
      for (const market of ['spot', 'future'] as const) {
        out[`${market}:${symbol}`] = this.streams.get(`${market}:${symbol}`)?.file.name ?? 'sim';
      }
    }
    return out;
  }

  async start(): Promise<void> {
    if (this.cancelTimers.length > 0) return;
    await this.load();
    this.startWallMs = this.clock.now();
    this.publishDue();
    this.cancelTimers.push(this.clock.setInterval(() => this.publishDue(), this.options.pollMs ?? 20));
    if (this.sim && this.simSymbols.length > 0) {
      const sim = this.sim;
      this.cancelTimers.push(
        this.clock.setInterval(() => {
          sim.step(1);
          const now = this.clock.now();
          for (const symbol of this.simSymbols) {
            this.core.emit(symbol, 'spot', sim.price(symbol, 'spot'), now);
            this.core.emit(symbol, 'future', sim.price(symbol, 'future'), now);
          }
        }, 1000),
      );
    }
  }

  async stop(): Promise<void> {
    for (const cancel of this.cancelTimers) cancel();
    this.cancelTimers = [];
  }

  private async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    const names = await listCandleFiles(this.options.dir);
    const warmup = this.options.warmupCandles ?? 500;
    const own = new Map<string, CandleFile>();
    for (const symbol of this.symbols()) {
      for (const market of ['spot', 'future'] as const) {
        // The first file in name order feeds the pair.
        const [name] = matchingFiles(names, symbol, market);
        if (name) own.set(`${market}:${symbol}`, await readCandleFile(this.options.dir, name));
      }
    }
    for (const symbol of this.symbols()) {
      const spot = own.get(`spot:${symbol}`) ?? own.get(`future:${symbol}`);
      const future = own.get(`future:${symbol}`) ?? spot;
      if (!spot || !future) {
        this.simSymbols.push(symbol);
        continue;
      }
      for (const [market, file] of [
        ['spot', spot],
        ['future', future],
      ] as const) {
        const startIndex = Math.min(warmup, Math.floor(file.candles.length / 2));
        this.streams.set(`${market}:${symbol}`, {
          symbol,
          market,
          file,
          startIndex,
          index: startIndex,
          sub: 0,
          offsetMs: 0,
          phaseMs: 0,
        });
      }
    }
    const streams = [...this.streams.values()];
    streams.forEach((stream, k) => {
      stream.phaseMs = (k / streams.length) * (stream.file.intervalMs / 4);
    });
    if (this.simSymbols.length > 0) this.sim = new SimModel(this.options.seed ?? 1, this.simSymbols);
    for (const symbol of this.simSymbols) {
      for (const market of ['spot', 'future'] as const) {
        this.core.emit(symbol, market, this.sim!.price(symbol, market), this.clock.now());
      }
    }
  }

  /** Publishes every tick whose replayed time has come. */
  private publishDue(): void {
    const elapsedMs = (this.clock.now() - this.startWallMs) * this.speed;
    for (const stream of this.streams.values()) this.publishStream(stream, elapsedMs);
  }

  private publishStream(stream: Stream, elapsedMs: number): void {
    const { candles, intervalMs } = stream.file;
    const origin = candles[stream.startIndex]!.openTimeMs;
    const loop = this.options.loop ?? true;
    for (let guard = 0; guard < 100_000; guard += 1) {
      if (stream.index >= candles.length) {
        if (!loop) return;
        const span = candles[candles.length - 1]!.openTimeMs + intervalMs - candles[0]!.openTimeMs;
        stream.offsetMs += span;
        stream.index = 0;
      }
      const candle = candles[stream.index]!;
      const tsMs = candle.openTimeMs + (stream.sub * intervalMs) / 4 + stream.offsetMs;
      // The first tick goes out at start, so every stream has a price at once; the stagger begins after it.
      const delayMs = tsMs === origin ? 0 : stream.phaseMs;
      if (tsMs - origin + delayMs > elapsedMs) return;
      const price = candleTicks(candle)[stream.sub]!;
      this.core.emit(stream.symbol, stream.market, price, tsMs, candle.volume / 4);
      stream.sub += 1;
      if (stream.sub === 4) {
        stream.sub = 0;
        stream.index += 1;
      }
    }
  }

  private history(symbol: string, market: MarketKind): HistoryProvider | undefined {
    const stream = this.streams.get(`${market}:${symbol}`);
    if (stream) {
      const before = stream.file.candles.slice(0, stream.startIndex);
      return (interval: CandleInterval) =>
        INTERVAL_MS[interval] < stream.file.intervalMs ? [] : aggregateCandles(before, INTERVAL_MS[interval]);
    }
    if (this.sim?.has(symbol)) {
      const sim = this.sim;
      const anchor = sim.price(symbol, market);
      return (interval, beforeMs) => sim.history(symbol, market, interval, beforeMs, 1000, anchor);
    }
    return undefined;
  }

  subscribe(symbol: string, market: MarketKind, listener: Parameters<MarketFeed['subscribe']>[2]) {
    return this.core.subscribe(symbol, market, listener);
  }
  lastPrice(symbol: string, market: MarketKind) {
    return this.core.lastPrice(symbol, market);
  }
  price(symbol: string, market: MarketKind) {
    return this.core.price(symbol, market);
  }
  ticker24h(symbol: string, market: MarketKind) {
    return this.core.ticker24h(symbol, market);
  }
  candles(...args: Parameters<MarketFeed['candles']>) {
    return this.core.candles(...args);
  }
}
