import { Redis } from 'ioredis';
import type { Bus } from './bus';

export interface RedisBusOptions {
  url: string;
  /** The deployment's `REDIS_PREFIX`, put before every channel name (`redisPrefixOf` in config/env.ts). */
  prefix: string;
  log: (message: string, extra?: Record<string, unknown>) => void;
}

/**
 * The bus on Redis pub/sub (ioredis): one connection publishes, one subscribes. ioredis reconnects and
 * subscribes again by itself after Redis restarts; what was published meanwhile is lost, which the
 * database polling of the workers covers. Publishing never queues while Redis is away (a stale wake-up
 * or tick is worthless), so an API request never waits for Redis.
 */
export class RedisBus implements Bus {
  readonly kind = 'redis' as const;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, Set<(message: string) => void>>();
  private readonly reconnectListeners: Array<() => void> = [];
  private connectedOnce = false;

  constructor(private readonly options: RedisBusOptions) {
    const common = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (times: number) => Math.min(times * 200, 2_000),
    };
    this.pub = new Redis(options.url, { ...common, connectionName: 'gridbot-pub' });
    // The subscriber keeps its commands queued while offline, so SUBSCRIBE goes out on reconnect.
    this.sub = new Redis(options.url, {
      ...common,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      connectionName: 'gridbot-sub',
    });
    for (const [name, client] of [
      ['publisher', this.pub],
      ['subscriber', this.sub],
    ] as const) {
      client.on('error', (error: Error) =>
        options.log('redis bus error', { client: name, err: error.message }),
      );
    }
    // 'ready' again after the first time: ioredis has subscribed anew, and what was published meanwhile is lost.
    this.sub.on('ready', () => {
      if (!this.connectedOnce) {
        this.connectedOnce = true;
        return;
      }
      for (const listener of this.reconnectListeners) listener();
    });
    this.sub.on('message', (prefixed: string, message: string) => {
      const channel = prefixed.slice(options.prefix.length);
      for (const handler of this.handlers.get(channel) ?? []) {
        try {
          handler(message);
        } catch (error) {
          options.log('bus handler failed', { channel, err: String(error) });
        }
      }
    });
  }

  /** Connects both clients; fails when Redis cannot be reached at start. */
  async connect(): Promise<void> {
    await Promise.all([this.pub.connect(), this.sub.connect()]);
  }

  async publish(channel: string, message: string): Promise<boolean> {
    if (this.pub.status !== 'ready') return false;
    try {
      await this.pub.publish(this.options.prefix + channel, message);
      return true;
    } catch (error) {
      this.options.log('redis publish failed', { channel, err: String(error) });
      return false;
    }
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.sub.subscribe(this.options.prefix + channel);
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0) {
        this.handlers.delete(channel);
        await this.sub.unsubscribe(this.options.prefix + channel).catch(() => undefined);
      }
    };
  }

  healthy(): boolean {
    return this.pub.status === 'ready' && this.sub.status === 'ready';
  }

  async close(): Promise<void> {
    this.pub.disconnect();
    this.sub.disconnect();
  }
}
