/**
 * Messages between the processes of one deployment (docs/architecture.md §1): command wake-ups from the API to
 * the worker that owns a bot, and the market's ticks to every worker. Delivery is best effort: the database
 * stays the source of truth, and a worker that missed a message catches up by polling it.
 */
export interface Bus {
  readonly kind: 'memory' | 'redis';
  /**
   * Sends to every subscriber of the channel (in every process); never throws for a lost connection.
   * Answers whether the message was handed over (false: not connected now, the message is dropped).
   */
  publish(channel: string, message: string): Promise<boolean>;
  /** Calls `handler` for each message of the channel until the returned function is called. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  /** Whether messages can flow now (readiness). */
  healthy(): boolean;
  /** Calls `listener` each time the subscriptions are back after a lost connection (messages may be lost). */
  onReconnect(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * Channel names. The Redis bus puts the deployment's `REDIS_PREFIX` before each (`RedisBus`), so several
 * deployments can share one Redis: pub/sub ignores the database index, so only the names keep them apart.
 */
export const channels = {
  /** `BotEvent` JSON. */
  bots: 'bots',
  /** `TickBatch` JSON. */
  ticks: 'ticks',
  /** `SessionRevocation` JSON: cached sessions to drop (modules/identity/session-revocations.ts). */
  sessions: 'sessions',
  /** A bot id: its owner settled some of its commands (bus/command-results.ts). */
  commands: 'commands',
  /** `UserEvent[]` JSON: a user's bot changes and notifications, for their open pages (push channel). */
  userEvents: 'user-events',
} as const;

/** The embedded bus: same interface, in this process, delivered on a later turn like a network bus. */
export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  private readonly handlers = new Map<string, Set<(message: string) => void>>();

  async publish(channel: string, message: string): Promise<boolean> {
    const set = this.handlers.get(channel);
    if (!set) return true;
    for (const handler of [...set]) {
      queueMicrotask(() => {
        try {
          handler(message);
        } catch (error) {
          console.error('bus handler failed', error);
        }
      });
    }
    return true;
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
    };
  }

  healthy(): boolean {
    return true;
  }

  onReconnect(_listener: () => void): void {
    // In-process: never disconnected, so never called.
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
