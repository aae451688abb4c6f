/**
 * Request budgets shared by every process that talks to an exchange (docs/operations.md "Request budgets").
 * An exchange counts what a client sends in fixed windows per key: Binance counts request weight per IP and
 * orders per account. Each request names what it costs in each budget; `take` waits until every cost fits,
 * then counts them all at once. A back-off answer (HTTP 429/418, Bybit 10006, OKX 50011) pauses a key for
 * every holder until the exchange's time.
 *
 * Two layers: a `BudgetCounter` does the counting (this process's memory, or Redis so that every process counts
 * together), and `FairRequestBudget` decides whose request goes next: each account queues apart and the budget
 * is handed round-robin among accounts with waiting requests, so one user's burst never starves the others.
 */

/** One fixed window of a budget: at most `limit` weight per `windowMs`, windows aligned to the epoch. */
export interface BudgetWindow {
  readonly limit: number;
  readonly windowMs: number;
}

/** What one request costs in one budget; `weight` 0 with no windows only honours the key's back-off. */
export interface BudgetCost {
  /** The budget, e.g. `binance:spot:ip:default` or `binance:spot:orders:<account>`. */
  readonly key: string;
  readonly weight: number;
  readonly windows: readonly BudgetWindow[];
}

export interface BudgetRequest {
  /** Who asks (an exchange account): requests of one account queue in order, accounts take turns. */
  readonly account: string;
  readonly costs: readonly BudgetCost[];
}

/** The port the exchange adapters use. */
export interface RequestBudget {
  /** Resolves once every cost of the request fits its windows and none of its keys is paused; counts them. */
  take(request: BudgetRequest): Promise<void>;
  /**
   * The exchange said to back off: nothing that costs in `key` goes out for `forMs` (a duration, so that each
   * counter ends the pause on its own clock: Redis's for every process at once).
   */
  backOff(key: string, forMs: number): Promise<void>;
}

export type TakeAnswer = { granted: true } | { granted: false; key: string; retryInMs: number };

/** Where budgets are counted: all costs of a request are checked and counted in one atomic step. */
export interface BudgetCounter {
  /** Counts every cost if all fit and no key is paused; else counts nothing and says which key blocks and how long. */
  tryTake(costs: readonly BudgetCost[]): Promise<TakeAnswer>;
  /** Pauses `key` for `forMs` from now; a pause already longer is kept. */
  backOff(key: string, forMs: number): Promise<void>;
}

export interface BudgetClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The real clock; its timers are unref'd, so a waiting request never keeps the process alive alone. */
export const systemBudgetClock: BudgetClock = {
  now: () => Date.now(),
  sleep: (ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref?.();
    }),
};

/**
 * The window a moment falls in and the time left in it. Windows start at multiples of their length since the
 * epoch, as Binance counts them: "a 1 MINUTE interval starts every minute", "1 DAY rate limit resets at 00:00
 * UTC every day, and 10 SECOND interval resets at 00, 10, 20... seconds of each minute" ([spot
 * web-socket-api.md] "Rate limits").
 */
export function windowAt(nowMs: number, windowMs: number): { slot: number; leftMs: number; atEdge: boolean } {
  const slot = Math.floor(nowMs / windowMs);
  const leftMs = (slot + 1) * windowMs - nowMs;
  return { slot, leftMs, atEdge: leftMs <= edgeOf(windowMs) };
}

/**
 * The end of a window where a request granted may reach the exchange only in the next one (the time it takes
 * to travel): one second, or a quarter of a short window. What is granted there counts in both windows.
 */
export function edgeOf(windowMs: number): number {
  return Math.min(1_000, Math.floor(windowMs / 4));
}

/** The counts of one process (ROLE=all, tests); the same rules as the Redis script. */
export class MemoryBudgetCounter implements BudgetCounter {
  /** Per budget and window length: the weight of the current window and what its edge put in the next. */
  private readonly used = new Map<string, { slot: number; weight: number; next: number }>();
  private readonly pausedUntil = new Map<string, number>();

  constructor(private readonly clock: Pick<BudgetClock, 'now'> = systemBudgetClock) {}

  async tryTake(costs: readonly BudgetCost[]): Promise<TakeAnswer> {
    const now = this.clock.now();
    let blocked: { key: string; retryInMs: number } | undefined;
    const block = (key: string, retryInMs: number) => {
      if (!blocked || retryInMs > blocked.retryInMs) blocked = { key, retryInMs };
    };
    for (const cost of costs) {
      const paused = this.pausedUntil.get(cost.key) ?? 0;
      if (paused > now) block(cost.key, paused - now);
      for (const window of cost.windows) {
        const { slot, leftMs, atEdge } = windowAt(now, window.windowMs);
        const used = this.usedIn(cost.key, window.windowMs, slot);
        // A request heavier than the whole window still goes out, alone, in a fresh window.
        if (used > 0 && used + cost.weight > window.limit) block(cost.key, leftMs);
        const next = atEdge ? this.usedIn(cost.key, window.windowMs, slot + 1) : 0;
        if (next > 0 && next + cost.weight > window.limit) block(cost.key, leftMs);
      }
    }
    if (blocked) return { granted: false, ...blocked };
    for (const cost of costs) {
      for (const window of cost.windows) {
        const { slot, atEdge } = windowAt(now, window.windowMs);
        const id = `${cost.key}|${window.windowMs}`;
        this.used.set(id, {
          slot,
          weight: this.usedIn(cost.key, window.windowMs, slot) + cost.weight,
          next: this.usedIn(cost.key, window.windowMs, slot + 1) + (atEdge ? cost.weight : 0),
        });
      }
    }
    return { granted: true };
  }

  async backOff(key: string, forMs: number): Promise<void> {
    const untilMs = this.clock.now() + forMs;
    this.pausedUntil.set(key, Math.max(this.pausedUntil.get(key) ?? 0, untilMs));
  }

  private usedIn(key: string, windowMs: number, slot: number): number {
    const entry = this.used.get(`${key}|${windowMs}`);
    if (entry?.slot === slot) return entry.weight;
    if (entry && entry.slot + 1 === slot) return entry.next;
    return 0;
  }
}

interface Waiter {
  readonly costs: readonly BudgetCost[];
  resolve(): void;
}

/**
 * Hands a counter's budget out fairly: one queue per account, and the accounts with waiting requests take turns,
 * one request each. A request blocked by a budget only it uses (its account's orders) does not hold up the
 * others; a request blocked by a shared budget (the IP's weight) waits until that window ends, and so does every
 * other request that costs in it, while the account's requests in other budgets go on (one Binance key trades
 * spot and futures, whose weights are counted apart). Every process has one; with Redis they share the counts
 * and the pauses.
 */
export class FairRequestBudget implements RequestBudget {
  private readonly queues = new Map<string, Waiter[]>();
  /** Accounts with waiting requests, in turn order; `next` is whose turn it is. */
  private readonly ring: string[] = [];
  private next = 0;
  /** Keys this process knows to be full or paused, until when (clock ms). */
  private readonly blockedUntil = new Map<string, number>();
  private running = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly counter: BudgetCounter,
    private readonly clock: BudgetClock = systemBudgetClock,
    /** Told when the counter fails; the request is tried again a moment later. */
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  take(request: BudgetRequest): Promise<void> {
    return new Promise<void>((resolve) => {
      let queue = this.queues.get(request.account);
      if (!queue) {
        queue = [];
        this.queues.set(request.account, queue);
        this.ring.push(request.account);
      }
      queue.push({ costs: request.costs, resolve });
      this.kick();
    });
  }

  async backOff(key: string, forMs: number): Promise<void> {
    const untilMs = this.clock.now() + forMs;
    this.blockedUntil.set(key, Math.max(this.blockedUntil.get(key) ?? 0, untilMs));
    await this.counter.backOff(key, forMs);
  }

  /** Requests waiting in this process (metrics, tests). */
  waiting(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }

  private kick(): void {
    if (this.running) {
      const wake = this.wake;
      this.wake = undefined;
      wake?.();
      return;
    }
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.running = true;
    try {
      while (this.ring.length > 0) {
        const now = this.clock.now();
        const turn = this.nextReady(now);
        if (turn === undefined) {
          await this.sleepOrKick(this.earliestUnblock(now) - now);
          continue;
        }
        const queue = this.queues.get(turn.account) as Waiter[];
        const head = queue[turn.index] as Waiter;
        let answer: TakeAnswer;
        try {
          answer = await this.counter.tryTake(head.costs);
        } catch (error) {
          this.onError(error);
          await this.sleepOrKick(COUNTER_RETRY_MS);
          continue;
        }
        if (answer.granted) {
          queue.splice(turn.index, 1);
          if (queue.length === 0) this.dropAccount(turn.account);
          head.resolve();
        } else {
          const until = this.clock.now() + Math.max(1, answer.retryInMs);
          this.blockedUntil.set(answer.key, Math.max(this.blockedUntil.get(answer.key) ?? 0, until));
        }
      }
    } finally {
      this.running = false;
      this.wake = undefined;
    }
  }

  /**
   * The account whose turn it is among those with a request that may go now; moves the turn past it. An
   * account's requests keep their order within each budget, but one waiting for a budget (its futures weight)
   * does not hold up a later one that costs nothing there (its spot order): one key trades on both venues.
   */
  private nextReady(now: number): { account: string; index: number } | undefined {
    for (let i = 0; i < this.ring.length; i += 1) {
      const ringIndex = (this.next + i) % this.ring.length;
      const account = this.ring[ringIndex] as string;
      const index = this.readiness(account, now, true).findIndex((readyAt) => readyAt <= now);
      if (index >= 0) {
        // Not wrapped here: an account that joins the ring meanwhile (pushed at its end) gets the next turn.
        this.next = ringIndex + 1;
        return { account, index };
      }
    }
    return undefined;
  }

  private earliestUnblock(now: number): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const account of this.ring) earliest = Math.min(earliest, ...this.readiness(account, now));
    return Number.isFinite(earliest) ? Math.max(earliest, now + 1) : now + 1;
  }

  /**
   * When each of the account's first `SCAN_DEPTH` requests may go (up to the first that may go now, with
   * `untilReady`): when its keys unblock, and never before an earlier request of the account that costs in one
   * of the same keys.
   */
  private readiness(account: string, now: number, untilReady = false): number[] {
    const queue = this.queues.get(account) ?? [];
    const keyReady = new Map<string, number>();
    const ready: number[] = [];
    for (const waiter of queue.slice(0, SCAN_DEPTH)) {
      let at = now;
      for (const cost of waiter.costs)
        at = Math.max(at, this.blockedUntil.get(cost.key) ?? 0, keyReady.get(cost.key) ?? 0);
      ready.push(at);
      if (untilReady && at <= now) break;
      // A later request of the same key waits at least as long.
      for (const cost of waiter.costs) keyReady.set(cost.key, at);
    }
    return ready;
  }

  private dropAccount(account: string): void {
    this.queues.delete(account);
    const index = this.ring.indexOf(account);
    this.ring.splice(index, 1);
    if (index < this.next) this.next -= 1;
  }

  /** Sleeps until a blocked key frees, or until a new request arrives (it may need other keys). */
  private sleepOrKick(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      void this.clock.sleep(ms).then(() => {
        if (this.wake === resolve) this.wake = undefined;
        resolve();
      });
    });
  }
}

/** How far into an account's queue a request may be taken ahead of earlier ones blocked on other budgets. */
const SCAN_DEPTH = 64;

/** How long a request waits before asking a counter that failed (Redis unreachable) again. */
const COUNTER_RETRY_MS = 1_000;
