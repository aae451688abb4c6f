import { FairRequestBudget, MemoryBudgetCounter } from '../budget/request-budget';

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
