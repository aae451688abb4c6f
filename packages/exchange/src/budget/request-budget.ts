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
 * Across processes the counter keeps the turns fair: in each budget it counts what every account was granted in
 * the current window and which accounts still wait, and refuses an account while one that waits anywhere was
 * granted less (least served first), so an account gets its share whichever process holds its bots.
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

/** One request as the counter sees it. */
export interface TakeRequest {
  readonly account: string;
  readonly costs: readonly BudgetCost[];
  /** The budgets in which more of the account's requests wait behind this one: it stays a waiter there. */
  readonly moreIn: readonly string[];
}

/**
 * `behind`: the budget has room, but an account that waits for it was granted less in its current window; only
 * this account's requests in that budget wait (`FAIR_RETRY_MS`).
 */
export type TakeAnswer =
  | { granted: true }
  | { granted: false; key: string; retryInMs: number; behind?: true };

/** Where budgets are counted: all costs of a request are checked and counted in one atomic step. */
export interface BudgetCounter {
  /**
   * Counts every cost if all fit, no key is paused and no waiting account was served less; else counts nothing
   * and says which key blocks and how long.
   */
  tryTake(request: TakeRequest): Promise<TakeAnswer>;
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

/**
 * How long a waiter stays known without asking again: after a grant with more of its requests behind it, the time
 * its process may take to come back with the next one (its other accounts' turns come first); after a refusal,
 * on top of the wait it was given. A process that died holds the others up for at most this long.
 */
export const FAIR_LIVE_MS = 1_000;
/** How soon an account refused for being ahead (`behind`) asks again. */
export const FAIR_RETRY_MS = 25;

/**
 * The window in which a budget's fair shares are counted: its first window (the only one of most budgets).
 * Budgets that cost nothing (a back-off check alone) take no part.
 */
export function fairWindowOf(cost: BudgetCost): BudgetWindow | undefined {
  return cost.weight > 0 ? cost.windows[0] : undefined;
}

/** The counts of one process (ROLE=all, tests); the same rules as the Redis script. */
export class MemoryBudgetCounter implements BudgetCounter {
  /** Per budget and window length: the weight of the current window and what its edge put in the next. */
  private readonly used = new Map<string, { slot: number; weight: number; next: number }>();
  private readonly pausedUntil = new Map<string, number>();
  /** Per budget: the weight each account was granted in the fair window's current slot. */
  private readonly granted = new Map<string, { slot: number; byAccount: Map<string, number> }>();
  /** Per budget: the accounts that wait for it, each until when it counts as waiting. */
  private readonly waiting = new Map<string, Map<string, number>>();

  constructor(private readonly clock: Pick<BudgetClock, 'now'> = systemBudgetClock) {}

  async tryTake({ account, costs, moreIn }: TakeRequest): Promise<TakeAnswer> {
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
    const fair = costs.filter((cost) => fairWindowOf(cost) !== undefined);
    if (blocked) {
      // It waits for the blocking budget only: in the others it holds nobody up meanwhile.
      for (const cost of fair) {
        if (cost.key === blocked.key)
          this.markWaiting(cost.key, account, now + blocked.retryInMs + FAIR_LIVE_MS);
        else this.waiting.get(cost.key)?.delete(account);
      }
      return { granted: false, ...blocked };
    }
    // The turns are decided budget by budget. A request shares at most one budget with other accounts (the
    // venue's IP weight; the rest are its account's own), so the least served of the waiters always goes. Were
    // a request to cost two shared budgets, A could be behind B in one and B behind A in the other, and both
    // would be refused until one's waiting mark lapsed: such a budget would need one order across budgets.
    for (const cost of fair) {
      const shares = this.sharesOf(cost, now);
      const mine = shares.get(account) ?? 0;
      for (const [other, liveUntil] of this.waiting.get(cost.key) ?? []) {
        if (liveUntil <= now) this.waiting.get(cost.key)?.delete(other);
        else if (other !== account && (shares.get(other) ?? 0) < mine) {
          for (const c of fair) this.markWaiting(c.key, account, now + FAIR_RETRY_MS + FAIR_LIVE_MS);
          return { granted: false, key: cost.key, retryInMs: FAIR_RETRY_MS, behind: true };
        }
      }
    }
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
    for (const cost of fair) {
      const shares = this.sharesOf(cost, now);
      shares.set(account, (shares.get(account) ?? 0) + cost.weight);
      if (moreIn.includes(cost.key)) this.markWaiting(cost.key, account, now + FAIR_LIVE_MS);
      else this.waiting.get(cost.key)?.delete(account);
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

  /** What each account was granted in the budget's current fair window (a new window starts everyone at 0). */
  private sharesOf(cost: BudgetCost, now: number): Map<string, number> {
    const slot = windowAt(now, (fairWindowOf(cost) as BudgetWindow).windowMs).slot;
    let entry = this.granted.get(cost.key);
    if (entry?.slot !== slot) {
      entry = { slot, byAccount: new Map() };
      this.granted.set(cost.key, entry);
    }
    return entry.byAccount;
  }

  private markWaiting(key: string, account: string, untilMs: number): void {
    let waiters = this.waiting.get(key);
    if (!waiters) {
      waiters = new Map();
      this.waiting.set(key, waiters);
    }
    waiters.set(account, untilMs);
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
          answer = await this.counter.tryTake({
            account: turn.account,
            costs: head.costs,
            moreIn: keysWaitingBehind(queue, turn.index),
          });
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
          // Behind: the budget has room for the others, only this account waits its turn.
          const blocked = answer.behind ? accountKey(turn.account, answer.key) : answer.key;
          this.blockedUntil.set(blocked, Math.max(this.blockedUntil.get(blocked) ?? 0, until));
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
        at = Math.max(
          at,
          this.blockedUntil.get(cost.key) ?? 0,
          this.blockedUntil.get(accountKey(account, cost.key)) ?? 0,
          keyReady.get(cost.key) ?? 0,
        );
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

/** Where an account's own wait for its turn in a budget is kept among the budget-wide blocks. */
const accountKey = (account: string, key: string) => `${account}\u0000${key}`;

/** The budgets of the request at `index` in which later requests of the same queue also cost. */
function keysWaitingBehind(queue: readonly Waiter[], index: number): string[] {
  const head = queue[index] as Waiter;
  const keys: string[] = [];
  for (const cost of head.costs) {
    const more = queue.some(
      (waiter, i) => i !== index && i < SCAN_DEPTH && waiter.costs.some((c) => c.key === cost.key),
    );
    if (more) keys.push(cost.key);
  }
  return keys;
}

/** How long a request waits before asking a counter that failed (Redis unreachable) again. */
const COUNTER_RETRY_MS = 1_000;
