/**
 * The moments around an order where a crash matters most (docs/trading-rules.md §3 "Intent before order"): just before its
 * intent is written, just after, after the exchange filled it but before the bot booked it, and after it
 * was booked. The runtime names them here and does nothing else; the crash tests install a hook that kills
 * the process at one of them (`testing/crash-server.ts`).
 */
export type FaultPoint = 'intent-write' | 'intent-written' | 'order-filled' | 'fill-booked';

export interface FaultDetail {
  botId: string;
  side: 'buy' | 'sell';
}

// Per-process state kept in the module on purpose (everything else is in objects the role builds,
// docs/architecture.md §1): the crash server installs its hook before it imports main.ts, and passing it in
// would thread a test-only parameter through main, the roles, the supervisor and its writes.
let hook: ((point: FaultPoint, detail: FaultDetail) => void) | undefined;

/** Installs the hook (one per process); never called in production. */
export function onFaultPoint(fn: (point: FaultPoint, detail: FaultDetail) => void): void {
  hook = fn;
}

export function faultPoint(point: FaultPoint, detail: FaultDetail): void {
  hook?.(point, detail);
}
