import { describe, expect, it } from 'vitest';
import { VirtualTime } from '../testing/virtual-time';
import {
  type BudgetCost,
  FAIR_LIVE_MS,
  FAIR_RETRY_MS,
  FairRequestBudget,
  MemoryBudgetCounter,
} from './request-budget';

const MINUTE = 60_000;
/** An IP budget of 100 weight a minute: small figures, the same rule as Binance's 6000. */
const ipCost = (weight = 1): BudgetCost => ({
  key: 'venue:ip',
  weight,
  windows: [{ limit: 100, windowMs: MINUTE }],
});

/** A request of one account with nothing behind it. */
const alone = (costs: BudgetCost[]) => ({ account: 'a', costs, moreIn: [] });

function budgetOnVirtualTime() {
  const time = new VirtualTime();
  const budget = new FairRequestBudget(new MemoryBudgetCounter(time), time);
  /** When each request went out (virtual ms), per account, and the weight spent in each minute. */
  const sent: { account: string; atMs: number; weight: number }[] = [];
  const request = (account: string, costs: BudgetCost[]) =>
    budget.take({ account, costs }).then(() => {
      sent.push({ account, atMs: time.now(), weight: costs[0]?.weight ?? 0 });
    });
  const weightPerMinute = () => {
    const perMinute = new Map<number, number>();
    for (const s of sent) {
      const minute = Math.floor(s.atMs / MINUTE);
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + s.weight);
    }
    return perMinute;
  };
  return { time, budget, sent, request, weightPerMinute };
}

describe('a fair request budget', () => {
  it('50 accounts, one bursting 1,000 requests: the 49 others go out in the first minute, the burst after; never over 100 a minute', async () => {
    const { time, sent, request, weightPerMinute } = budgetOnVirtualTime();
    const all: Promise<void>[] = [];
    // The burst is queued first: a plain first-come queue would make the others wait ten minutes.
    for (let i = 0; i < 1000; i += 1) all.push(request('burst', [ipCost()]));
    for (let a = 1; a < 50; a += 1) all.push(request(`user-${a}`, [ipCost()]));
    await time.run();
    await Promise.all(all);

    const others = sent.filter((s) => s.account !== 'burst');
    expect(others).toHaveLength(49);
    // Turns alternate burst, user-1, …, user-49: all 49 go out among the first 50 of the minute's 100.
    expect(others.every((s) => s.atMs === 0)).toBe(true);
    expect(sent.slice(0, 50).filter((s) => s.account === 'burst')).toHaveLength(1);
    // 1,049 requests at 100 a minute: 11 minutes (0…10), each at most 100, the last one 49.
    const perMinute = weightPerMinute();
    expect([...perMinute.keys()]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(Math.max(...perMinute.values())).toBe(100);
    expect(perMinute.get(10)).toBe(49);
  });

  it('a request that arrives in the middle of a burst waits for the next window, not for the burst', async () => {
    const { time, sent, request } = budgetOnVirtualTime();
    const burst = Array.from({ length: 1000 }, () => request('burst', [ipCost()]));
    await time.run(30_000);
    // Half a minute in: the first minute's 100 are spent on the burst.
    expect(sent).toHaveLength(100);
    const late = request('late-user', [ipCost()]);
    await time.run(MINUTE);
    await late;
    const lateSent = sent.find((s) => s.account === 'late-user');
    // The burst had the last turn of the first minute: the second minute opens with the late user's.
    expect(lateSent?.atMs).toBe(MINUTE);
    expect(sent.slice(100, 102).map((s) => s.account)).toEqual(['late-user', 'burst']);
    await time.run();
    await Promise.all(burst);
  });

  it("an account over its own order budget waits alone: the others' requests keep going out", async () => {
    const { time, sent, request } = budgetOnVirtualTime();
    // 2 orders per 10 s for each account (Binance counts orders per account).
    const orders = (account: string): BudgetCost => ({
      key: `orders:${account}`,
      weight: 1,
      windows: [{ limit: 2, windowMs: 10_000 }],
    });
    const all = [
      ...Array.from({ length: 5 }, () => request('busy', [ipCost(), orders('busy')])),
      ...Array.from({ length: 3 }, () => request('calm', [ipCost()])),
    ];
    await time.run();
    await Promise.all(all);
    expect(sent.filter((s) => s.account === 'calm').map((s) => s.atMs)).toEqual([0, 0, 0]);
    // busy: 2 at 0 s, 2 at 10 s, 1 at 20 s.
    expect(sent.filter((s) => s.account === 'busy').map((s) => s.atMs)).toEqual([
      0, 0, 10_000, 10_000, 20_000,
    ]);
  });

  it("an account's request waiting for one budget does not hold up its requests in another", async () => {
    const { time, sent, request } = budgetOnVirtualTime();
    // One key trades spot and futures: Binance counts each venue's weight apart (2 a minute here, 100 on spot).
    const futures: BudgetCost = { key: 'futures:ip', weight: 1, windows: [{ limit: 2, windowMs: MINUTE }] };
    const all = [
      ...Array.from({ length: 3 }, () => request('user', [futures])),
      request('user', [ipCost(2)]),
      request('user', [futures]),
      request('user', [ipCost(2)]),
    ];
    await time.run();
    await Promise.all(all);
    // The spot requests (weight 2) go out at once; the futures ones (weight 1) keep their order, two a minute.
    expect(sent.map((s) => [s.weight, s.atMs])).toEqual([
      [1, 0],
      [1, 0],
      [2, 0],
      [2, 0],
      [1, MINUTE],
      [1, MINUTE],
    ]);
  });

  it('a back-off pauses every request that costs in its key until the given time, and no other', async () => {
    const { time, budget, sent, request } = budgetOnVirtualTime();
    await budget.backOff('venue:ip', 120_000);
    const other: BudgetCost = { key: 'other:ip', weight: 1, windows: [{ limit: 100, windowMs: MINUTE }] };
    const both = [request('a', [ipCost()]), request('b', [other])];
    await time.run();
    await Promise.all(both);
    expect(sent).toEqual([
      { account: 'b', atMs: 0, weight: 1 },
      { account: 'a', atMs: 120_000, weight: 1 },
    ]);
  });

  it('a shorter back-off never cuts a longer one short', async () => {
    const { time, budget, sent, request } = budgetOnVirtualTime();
    await budget.backOff('venue:ip', 300_000);
    await budget.backOff('venue:ip', 1_000);
    const one = request('a', [ipCost()]);
    await time.run();
    await one;
    expect(sent[0]?.atMs).toBe(300_000);
  });

  it('counts a request in every budget it names, or in none: one refused in the second budget spends nothing in the first', async () => {
    const time = new VirtualTime();
    const counter = new MemoryBudgetCounter(time);
    const small: BudgetCost = { key: 'small', weight: 1, windows: [{ limit: 1, windowMs: MINUTE }] };
    expect(await counter.tryTake(alone([small]))).toEqual({ granted: true });
    expect(await counter.tryTake(alone([ipCost(60), small]))).toEqual({
      granted: false,
      key: 'small',
      retryInMs: MINUTE,
    });
    // Nothing of the refused 60 was counted: 100 still fit.
    expect(await counter.tryTake(alone([ipCost(100)]))).toEqual({ granted: true });
  });

  it('a request heavier than a whole window goes out alone at the start of a fresh one', async () => {
    let now = 10_000;
    const counter = new MemoryBudgetCounter({ now: () => now });
    expect(await counter.tryTake(alone([ipCost(1)]))).toEqual({ granted: true });
    // 50 s left of the first minute.
    expect(await counter.tryTake(alone([ipCost(150)]))).toMatchObject({ granted: false, retryInMs: 50_000 });
    now = MINUTE;
    expect(await counter.tryTake(alone([ipCost(150)]))).toEqual({ granted: true });
    expect(await counter.tryTake(alone([ipCost(1)]))).toMatchObject({ granted: false, retryInMs: MINUTE });
  });

  it('a request granted in the last second of a window counts in the next one too: it may arrive there', async () => {
    let now = 59_500;
    const counter = new MemoryBudgetCounter({ now: () => now });
    expect(await counter.tryTake(alone([ipCost(60)]))).toEqual({ granted: true });
    now = MINUTE;
    // The second minute already holds those 60: 40 fit, 41 do not.
    expect(await counter.tryTake(alone([ipCost(41)]))).toMatchObject({ granted: false, retryInMs: MINUTE });
    expect(await counter.tryTake(alone([ipCost(40)]))).toEqual({ granted: true });
  });
});

describe('a request budget shared by several processes', () => {
  it('one account alone on its process gets the share of one account, not half the budget', async () => {
    // Two worker processes count in one place (Redis in production); each hands its budget out among its own
    // accounts. Process 1 holds five bursting users, process 2 one.
    const time = new VirtualTime();
    const counter = new MemoryBudgetCounter(time);
    const processes = [new FairRequestBudget(counter, time), new FairRequestBudget(counter, time)];
    const sent: { account: string; atMs: number }[] = [];
    const accounts = [
      ...['a', 'b', 'c', 'd', 'e'].map((name) => ({ name, process: 0 })),
      { name: 'z', process: 1 },
    ];
    const all: Promise<void>[] = [];
    for (const { name, process } of accounts) {
      for (let i = 0; i < 60; i += 1) {
        all.push(
          (processes[process] as FairRequestBudget)
            .take({ account: name, costs: [ipCost()] })
            .then(() => void sent.push({ account: name, atMs: time.now() })),
        );
      }
    }
    await time.run(MINUTE - 1);
    // The first minute's 100: each of the six users 16 or 17 of them, whichever process asks for them.
    const firstMinute = sent.filter((s) => s.atMs < MINUTE);
    expect(firstMinute).toHaveLength(100);
    for (const { name } of accounts) {
      const count = firstMinute.filter((s) => s.account === name).length;
      expect(count, name).toBeGreaterThanOrEqual(16);
      expect(count, name).toBeLessThanOrEqual(17);
    }
    await time.run();
    await Promise.all(all);
    expect(sent).toHaveLength(360);
  });
});

describe('fair turns kept by the counter', () => {
  it('an account ahead is refused while one served less waits, and only until that one asks again or lapses', async () => {
    let now = 0;
    const counter = new MemoryBudgetCounter({ now: () => now });
    const take = (account: string, moreIn: string[] = ['venue:ip']) =>
      counter.tryTake({ account, costs: [ipCost()], moreIn });
    // "slow" was granted once with more waiting; "fast" twice already: it is ahead.
    expect(await take('slow')).toEqual({ granted: true });
    expect(await take('fast')).toEqual({ granted: true });
    expect(await take('fast')).toEqual({ granted: true });
    expect(await take('fast')).toEqual({
      granted: false,
      key: 'venue:ip',
      retryInMs: FAIR_RETRY_MS,
      behind: true,
    });
    // "slow"'s process never comes back (it died): after FAIR_LIVE_MS it no longer counts as waiting.
    now = FAIR_LIVE_MS + 1;
    expect(await take('fast')).toEqual({ granted: true });
  });

  it('an account with nothing more to send holds nobody up', async () => {
    const counter = new MemoryBudgetCounter({ now: () => 0 });
    expect(await counter.tryTake({ account: 'once', costs: [ipCost()], moreIn: [] })).toEqual({
      granted: true,
    });
    for (let i = 0; i < 5; i += 1)
      expect(await counter.tryTake({ account: 'busy', costs: [ipCost()], moreIn: ['venue:ip'] })).toEqual({
        granted: true,
      });
  });

  it('an account waiting for its own order budget does not hold up the shared one meanwhile', async () => {
    const counter = new MemoryBudgetCounter({ now: () => 0 });
    const orders: BudgetCost = { key: 'orders:slow', weight: 1, windows: [{ limit: 1, windowMs: 10_000 }] };
    const slow = () => counter.tryTake({ account: 'slow', costs: [ipCost(), orders], moreIn: ['venue:ip'] });
    expect(await slow()).toEqual({ granted: true });
    // Its next order waits 10 s for its own budget: in the shared one it is no waiter.
    expect(await slow()).toMatchObject({ granted: false, key: 'orders:slow', retryInMs: 10_000 });
    for (let i = 0; i < 3; i += 1)
      expect(await counter.tryTake({ account: 'other', costs: [ipCost()], moreIn: ['venue:ip'] })).toEqual({
        granted: true,
      });
  });
});
