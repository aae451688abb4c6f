import {
  type BudgetClock,
  type BudgetCounter,
  edgeOf,
  FAIR_LIVE_MS,
  FAIR_RETRY_MS,
  MemoryBudgetCounter,
  systemBudgetClock,
  type TakeAnswer,
  type TakeRequest,
} from './request-budget';

/** The one command the counter needs (an ioredis client has it). */
export interface BudgetRedis {
  eval(script: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
}

/**
 * Checks every cost's pause and windows, then the turn of the account among those that wait, then counts all of
 * them, in one atomic step on Redis's own clock (every process sees the same window edges whatever its clock
 * says). KEYS: one budget key per cost. ARGV: the account, `FAIR_RETRY_MS`, `FAIR_LIVE_MS`, then per cost:
 * weight, 1 if more of the account's requests wait behind this one in it, number of windows, then limit, length
 * and edge (ms) of each window; a request granted within the edge of a window's end counts in the next window
 * too (`edgeOf`). Counters are `<key>:w<length>:<window number>` (fixed windows aligned to the epoch) and expire
 * with their window; a pause is `<key>:pause` holding its end (Redis ms). Fair turns, the rules of
 * `MemoryBudgetCounter`: `<key>:fair:<length>:<window number>` holds what each account was granted in the
 * budget's first window, `<key>:waiting` (sorted set) the accounts that wait and until when they count as
 * waiting. Answers {1}, {0, ms to wait, blocking key} or {0, ms, key, 1} when the account is behind.
 */
const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local account = ARGV[1]
local retryMs = tonumber(ARGV[2]); local liveMs = tonumber(ARGV[3])
local wait, blocker = 0, ''
local counts = {}
local fair = {}
local a = 4
for i, key in ipairs(KEYS) do
  local weight = tonumber(ARGV[a]); local more = ARGV[a + 1] == '1'; local n = tonumber(ARGV[a + 2]); a = a + 3
  local paused = tonumber(redis.call('GET', key .. ':pause') or '0')
  if paused > now and paused - now > wait then wait = paused - now; blocker = key end
  for w = 1, n do
    local limit = tonumber(ARGV[a]); local len = tonumber(ARGV[a + 1]); local edge = tonumber(ARGV[a + 2])
    a = a + 3
    local slot = math.floor(now / len)
    local left = (slot + 1) * len - now
    local counter = key .. ':w' .. len .. ':' .. slot
    local used = tonumber(redis.call('GET', counter) or '0')
    if used > 0 and used + weight > limit and left > wait then wait = left; blocker = key end
    counts[#counts + 1] = {counter, weight, left}
    if left <= edge then
      local nextCounter = key .. ':w' .. len .. ':' .. (slot + 1)
      local nextUsed = tonumber(redis.call('GET', nextCounter) or '0')
      if nextUsed > 0 and nextUsed + weight > limit and left > wait then wait = left; blocker = key end
      counts[#counts + 1] = {nextCounter, weight, left + len}
    end
    if w == 1 and weight > 0 then
      fair[#fair + 1] = {key = key, shares = key .. ':fair:' .. len .. ':' .. slot, weight = weight, left = left, more = more}
    end
  end
end
local function markWaiting(key, untilMs)
  local waiting = key .. ':waiting'
  redis.call('ZADD', waiting, untilMs, account)
  if redis.call('PTTL', waiting) < untilMs - now + 1000 then redis.call('PEXPIRE', waiting, untilMs - now + 1000) end
end
if wait > 0 then
  for _, f in ipairs(fair) do
    if f.key == blocker then markWaiting(f.key, now + wait + liveMs) else redis.call('ZREM', f.key .. ':waiting', account) end
  end
  return {0, wait, blocker}
end
for _, f in ipairs(fair) do
  redis.call('ZREMRANGEBYSCORE', f.key .. ':waiting', '-inf', now)
  local waiters = redis.call('ZRANGE', f.key .. ':waiting', 0, -1)
  if #waiters > 0 then
    local granted = {}
    local flat = redis.call('HGETALL', f.shares)
    for j = 1, #flat, 2 do granted[flat[j]] = tonumber(flat[j + 1]) end
    local mine = granted[account] or 0
    for _, other in ipairs(waiters) do
      if other ~= account and (granted[other] or 0) < mine then
        for _, g in ipairs(fair) do markWaiting(g.key, now + retryMs + liveMs) end
        return {0, retryMs, f.key, 1}
      end
    end
  end
end
for _, c in ipairs(counts) do
  if c[2] > 0 then
    redis.call('INCRBY', c[1], c[2])
    redis.call('PEXPIRE', c[1], c[3] + 1000)
  end
end
for _, f in ipairs(fair) do
  redis.call('HINCRBY', f.shares, account, f.weight)
  redis.call('PEXPIRE', f.shares, f.left + 1000)
  if f.more then markWaiting(f.key, now + liveMs) else redis.call('ZREM', f.key .. ':waiting', account) end
end
return {1}`;

/** Moves a key's pause end to now + ARGV[1] ms (Redis clock), never earlier than it already is. */
const BACK_OFF_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilMs = now + tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMs > current then redis.call('SET', KEYS[1], untilMs, 'PX', tonumber(ARGV[1]) + 1000) end
return untilMs`;

/**
 * Budgets counted in Redis under the deployment's `REDIS_PREFIX` (`<prefix>budget:<key>…`), so every process of
 * a split deployment counts together and a back-off seen by one pauses all. When Redis does not answer, this
 * process counts on alone in its memory (it alone then stays under each limit) and says so through `onError`.
 */
export class RedisBudgetCounter implements BudgetCounter {
  private readonly prefix: string;
  private readonly fallback: MemoryBudgetCounter;

  constructor(
    private readonly redis: BudgetRedis,
    redisPrefix: string,
    private readonly options: {
      clock?: BudgetClock;
      onError?: (error: unknown) => void;
    } = {},
  ) {
    this.prefix = `${redisPrefix}budget:`;
    this.fallback = new MemoryBudgetCounter(options.clock ?? systemBudgetClock);
  }

  async tryTake(request: TakeRequest): Promise<TakeAnswer> {
    const { account, costs, moreIn } = request;
    const keys = costs.map((cost) => this.prefix + cost.key);
    const args: Array<string | number> = [account, FAIR_RETRY_MS, FAIR_LIVE_MS];
    for (const cost of costs) {
      args.push(cost.weight, moreIn.includes(cost.key) ? 1 : 0, cost.windows.length);
      for (const window of cost.windows) args.push(window.limit, window.windowMs, edgeOf(window.windowMs));
    }
    let answer: unknown[];
    try {
      answer = (await this.redis.eval(TAKE_SCRIPT, keys.length, ...keys, ...args)) as unknown[];
    } catch (error) {
      this.options.onError?.(error);
      return this.fallback.tryTake(request);
    }
    if (Number(answer[0]) === 1) return { granted: true };
    return {
      granted: false,
      key: String(answer[2]).slice(this.prefix.length),
      retryInMs: Number(answer[1]),
      ...(Number(answer[3]) === 1 ? { behind: true as const } : {}),
    };
  }

  async backOff(key: string, forMs: number): Promise<void> {
    await this.fallback.backOff(key, forMs);
    try {
      // A duration: Redis's clock, not this process's, decides when the pause ends for everyone.
      await this.redis.eval(BACK_OFF_SCRIPT, 1, `${this.prefix}${key}:pause`, Math.max(1, Math.ceil(forMs)));
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}
