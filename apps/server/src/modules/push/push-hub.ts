import type { Db } from '@gridbot/db';
import type { MarketFeed } from '@gridbot/exchange';
import { type PushClientMessage, type PushMessage, pushClientMessageSchema } from '@gridbot/shared';
import type { WebSocket } from 'ws';
import type { UserEvent } from '../../bus/user-events';
import type { Clock } from '../../lib/clock';
import { sha256 } from '../../lib/tokens';
import { ownersOf } from '../bots';
import type { SessionCache } from '../identity';
import { findLiveSession, type LiveSessionReads, type UserRow } from '../identity';

/** Close codes (4000-4999 are the application's, RFC 6455 §7.4.2). */
export const CLOSE = {
  unauthorized: 4401,
  /** The client did not read fast enough: reconnect, and catch up with a poll. */
  slow: 4408,
  badMessage: 4400,
} as const;

export interface PushHubOptions {
  db: Db;
  /** The process's session cache and lookups (`ProcessState`): a socket signs in like a request. */
  sessions: SessionCache;
  liveSessions: LiveSessionReads;
  feed: MarketFeed;
  clock: Clock;
  log: (message: string, extra?: Record<string, unknown>) => void;
  /** Bytes a socket may have queued before it is dropped as too slow. */
  maxBufferedBytes?: number;
  /** How often each socket's session is checked again (a revoked token ends the socket). */
  recheckMs?: number;
  /** How long a new socket may take to authenticate. */
  authTimeoutMs?: number;
  /** Prices of a pair go out at most this often per socket (the newest one wins). */
  priceIntervalMs?: number;
}

interface Connection {
  socket: WebSocket;
  tokenHash: string;
  userId: string;
  prices: Map<string, () => void>;
  pendingPrices: Map<string, PushMessage>;
  flushTimer: NodeJS.Timeout | undefined;
  recheck: NodeJS.Timeout;
}

/**
 * The push channel of one API process: authenticated sockets, each getting the prices of the pairs its
 * page shows and its user's own bot changes and notifications. Events come from the bus (from every
 * worker); the pages keep polling, so anything lost here is only late.
 */
export class PushHub {
  private readonly byUser = new Map<string, Set<Connection>>();
  /** Bot id → owner, for events whose writer did not know the user. Owners never change. */
  private readonly owners = new Map<string, string>();
  private readonly options: Required<PushHubOptions>;

  constructor(options: PushHubOptions) {
    this.options = {
      maxBufferedBytes: 512 * 1024,
      recheckMs: 5_000,
      authTimeoutMs: 5_000,
      priceIntervalMs: 250,
      ...options,
    };
  }

  /** Open sockets (metrics, tests). */
  get size(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    return n;
  }

  /**
   * Takes a freshly upgraded socket: its first message must authenticate it. A socket holds at most one
   * connection (and so one recheck timer) whatever it sends: the web client sends its token once per socket
   * (`apps/web/src/lib/push-channel.ts`), so a second `auth` closes the socket instead of signing in again.
   */
  accept(socket: WebSocket): void {
    let stage: 'waiting' | 'verifying' | 'open' | 'closed' = 'waiting';
    let connection: Connection | undefined;
    /**
     * Ends the socket from here. It counts as closed at once: its 'close' event comes only when the client
     * answers the close handshake, and a token verified meanwhile must not sign it in.
     */
    const end = (code: number, reason: string) => {
      stage = 'closed';
      clearTimeout(timer);
      socket.close(code, reason);
    };
    // Runs until the token is verified, not until it arrives: a lookup that never answers ends the socket too.
    const timer = setTimeout(() => end(CLOSE.unauthorized, 'authenticate first'), this.options.authTimeoutMs);
    socket.on('message', (data, isBinary) => {
      const message = isBinary ? undefined : parse(data.toString());
      if (!message) {
        end(CLOSE.badMessage, 'bad message');
        return;
      }
      if (message.type === 'auth') {
        if (stage !== 'waiting') {
          end(CLOSE.badMessage, 'authenticate once');
          return;
        }
        stage = 'verifying';
        const tokenHash = sha256(message.token);
        void this.userOf(tokenHash)
          .catch(() => undefined)
          .then((user) => {
            if (stage === 'closed') return;
            clearTimeout(timer);
            if (!user) {
              socket.close(CLOSE.unauthorized, 'session expired');
              return;
            }
            connection = this.open(socket, tokenHash, user.id);
            stage = 'open';
          });
        return;
      }
      if (connection) this.watchPrices(connection, message.pairs);
    });
    socket.on('close', () => {
      stage = 'closed';
      clearTimeout(timer);
      if (connection) this.drop(connection);
    });
    socket.on('error', () => socket.terminate());
  }

  /** Routes events from the bus to the sockets of their users. */
  async dispatch(events: readonly UserEvent[]): Promise<void> {
    const unknown = events.filter((e) => e.kind === 'bot' && !e.userId && !this.owners.has(e.botId));
    if (unknown.length > 0) await this.loadOwners(unknown.map((e) => (e as { botId: string }).botId));
    for (const event of events) {
      if (event.kind === 'notification') {
        this.sendToUser(event.userId, { type: 'notification', item: event.item });
        continue;
      }
      const userId = event.userId ?? this.owners.get(event.botId);
      if (!userId) continue;
      if (event.userId) this.remember(event.botId, event.userId);
      this.sendToUser(userId, {
        type: 'bot',
        botId: event.botId,
        change: event.change,
        status: event.status,
        at: event.at,
      });
    }
  }

  closeAll(): void {
    for (const set of this.byUser.values()) for (const c of set) c.socket.close(1001, 'server shutting down');
  }

  /** Registers a verified socket; its one recheck timer ends in `drop`, when the socket closes. */
  private open(socket: WebSocket, tokenHash: string, userId: string): Connection {
    const connection: Connection = {
      socket,
      tokenHash,
      userId,
      prices: new Map(),
      pendingPrices: new Map(),
      flushTimer: undefined,
      recheck: setInterval(() => {
        this.userOf(tokenHash).then(
          (current) => {
            if (!current) socket.close(CLOSE.unauthorized, 'session expired');
          },
          () => undefined, // the database is away: keep the socket, try again next time
        );
      }, this.options.recheckMs),
    };
    let set = this.byUser.get(userId);
    if (!set) {
      set = new Set();
      this.byUser.set(userId, set);
    }
    set.add(connection);
    this.send(connection, { type: 'ready' });
    return connection;
  }

  private userOf(tokenHash: string): Promise<UserRow | undefined> {
    const { sessions, liveSessions } = this.options;
    return sessions.user(tokenHash, this.options.clock.now().getTime(), () =>
      findLiveSession(liveSessions, tokenHash),
    );
  }

  private watchPrices(connection: Connection, pairs: { market: 'spot' | 'future'; symbol: string }[]): void {
    const wanted = new Set(pairs.map((p) => `${p.market}:${p.symbol}`));
    for (const [key, unsubscribe] of connection.prices) {
      if (!wanted.has(key)) {
        unsubscribe();
        connection.prices.delete(key);
      }
    }
    const known = new Set(this.options.feed.symbols());
    for (const { market, symbol } of pairs) {
      const key = `${market}:${symbol}`;
      if (connection.prices.has(key) || !known.has(symbol)) continue;
      const unsubscribe = this.options.feed.subscribe(symbol, market, (tick) => {
        connection.pendingPrices.set(key, { type: 'price', market, symbol, price: tick.price });
        connection.flushTimer ??= setTimeout(
          () => this.flushPrices(connection),
          this.options.priceIntervalMs,
        );
      });
      connection.prices.set(key, unsubscribe);
      const last = this.options.feed.lastPrice(symbol, market);
      if (last !== undefined) this.send(connection, { type: 'price', market, symbol, price: String(last) });
    }
  }

  private flushPrices(connection: Connection): void {
    connection.flushTimer = undefined;
    for (const message of connection.pendingPrices.values()) this.send(connection, message);
    connection.pendingPrices.clear();
  }

  private sendToUser(userId: string, message: PushMessage): void {
    const set = this.byUser.get(userId);
    if (!set) return;
    for (const connection of set) this.send(connection, message);
  }

  /** A socket whose queue keeps growing is closed rather than buffered without bound. */
  private send(connection: Connection, message: PushMessage): void {
    const { socket } = connection;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > this.options.maxBufferedBytes) {
      this.options.log('push socket too slow; dropped', { userId: connection.userId });
      socket.close(CLOSE.slow, 'too slow');
      // A peer that reads nothing never completes the closing handshake either.
      setTimeout(() => socket.terminate(), 1_000).unref();
      this.drop(connection);
      return;
    }
    socket.send(JSON.stringify(message));
  }

  private drop(connection: Connection): void {
    clearInterval(connection.recheck);
    clearTimeout(connection.flushTimer);
    for (const unsubscribe of connection.prices.values()) unsubscribe();
    connection.prices.clear();
    const set = this.byUser.get(connection.userId);
    set?.delete(connection);
    if (set?.size === 0) this.byUser.delete(connection.userId);
  }

  private async loadOwners(botIds: string[]): Promise<void> {
    for (const row of await ownersOf(this.options.db, botIds)) this.remember(row.id, row.userId);
  }

  private remember(botId: string, userId: string): void {
    // Bounded: forgetting costs one query the next time.
    if (this.owners.size > 100_000) this.owners.clear();
    this.owners.set(botId, userId);
  }
}

function parse(text: string): PushClientMessage | undefined {
  try {
    const result = pushClientMessageSchema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
