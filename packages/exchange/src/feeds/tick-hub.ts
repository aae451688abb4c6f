import type { MarketKind } from '@gridbot/shared';
import type { Tick, TickListener } from '../market-feed';

/** Key of one price stream. */
export function streamKey(symbol: string, market: MarketKind): string {
  return `${market}:${symbol}`;
}

/**
 * One subscriber. Synchronous listeners are simply called. An async listener gets at most one call
 * in flight: ticks that arrive meanwhile overwrite a single pending slot, so a slow subscriber never
 * accumulates a backlog and always resumes with the latest price.
 */
class Subscription {
  active = true;
  private busy = false;
  private pending: Tick | undefined;

  constructor(
    private readonly listener: TickListener,
    private readonly onError: (error: unknown) => void,
  ) {}

  deliver(tick: Tick): void {
    if (!this.active) return;
    if (this.busy) {
      this.pending = tick;
      return;
    }
    let result: void | Promise<void>;
    try {
      result = this.listener(tick);
    } catch (error) {
      this.onError(error);
      return;
    }
    if (result !== undefined && typeof (result as Promise<void>).then === 'function') {
      this.busy = true;
      (result as Promise<void>).then(this.done, (error: unknown) => {
        this.onError(error);
        this.done();
      });
    }
  }

  private readonly done = (): void => {
    this.busy = false;
    const next = this.pending;
    this.pending = undefined;
    if (next) this.deliver(next);
  };
}

/**
 * In-process fan-out of ticks to any number of subscribers per stream, plus the last tick of each
 * stream. Every feed publishes through one hub.
 */
export class TickHub {
  private readonly subscribers = new Map<string, Set<Subscription>>();
  private readonly lastTicks = new Map<string, Tick>();
  private readonly waiters = new Map<string, Array<(tick: Tick) => void>>();

  constructor(private readonly onError: (error: unknown) => void = defaultOnError) {}

  subscribe(symbol: string, market: MarketKind, listener: TickListener): () => void {
    const key = streamKey(symbol, market);
    let set = this.subscribers.get(key);
    if (!set) {
      set = new Set();
      this.subscribers.set(key, set);
    }
    const subscription = new Subscription(listener, this.onError);
    set.add(subscription);
    return () => {
      subscription.active = false;
      set.delete(subscription);
    };
  }

  /** Number of live subscriptions of a stream. */
  subscriberCount(symbol: string, market: MarketKind): number {
    return this.subscribers.get(streamKey(symbol, market))?.size ?? 0;
  }

  publish(tick: Tick): void {
    const key = streamKey(tick.symbol, tick.market);
    this.lastTicks.set(key, tick);
    const waiting = this.waiters.get(key);
    if (waiting) {
      this.waiters.delete(key);
      for (const resolve of waiting) resolve(tick);
    }
    const set = this.subscribers.get(key);
    if (!set) return;
    for (const subscription of set) subscription.deliver(tick);
  }

  last(symbol: string, market: MarketKind): Tick | undefined {
    return this.lastTicks.get(streamKey(symbol, market));
  }

  /** The last tick, or the next one when none has been published yet. */
  next(symbol: string, market: MarketKind): Promise<Tick> {
    const last = this.last(symbol, market);
    if (last) return Promise.resolve(last);
    const key = streamKey(symbol, market);
    return new Promise((resolve) => {
      const list = this.waiters.get(key) ?? [];
      list.push(resolve);
      this.waiters.set(key, list);
    });
  }
}

function defaultOnError(error: unknown): void {
  console.error('market feed subscriber failed', error);
}
