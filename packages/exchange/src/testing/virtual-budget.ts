import { type BudgetCost, FairRequestBudget, MemoryBudgetCounter } from '../budget/request-budget';
import { VirtualTime } from './virtual-time';

/**
 * A request budget of its own on a virtual clock: waiting out a back-off moves the clock at once and records the
 * wait (ms); `onSleep` lets a test move other clocks along (the double's ban).
 */
export function virtualBudget(options: { onSleep?: (ms: number) => void } = {}): {
  budget: FairRequestBudget;
  waits: number[];
} {
  const waits: number[] = [];
  let now = 0;
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      waits.push(ms);
      now += ms;
      options.onSleep?.(ms);
    },
  };
  return { budget: new FairRequestBudget(new MemoryBudgetCounter(clock), clock), waits };
}

/**
 * A fair budget on virtual time that records when each account's requests went out: `request` takes the costs
 * in the account's turn, `times` lists the virtual ms of the account's requests in the order they went out.
 */
export function budgetOnVirtualTime() {
  const time = new VirtualTime();
  const budget = new FairRequestBudget(new MemoryBudgetCounter(time), time);
  const sent: { account: string; atMs: number }[] = [];
  const request = (account: string, costs: BudgetCost[]) =>
    budget.take({ account, costs }).then(() => void sent.push({ account, atMs: time.now() }));
  const times = (account: string) => sent.filter((s) => s.account === account).map((s) => s.atMs);
  return { time, budget, request, times };
}
