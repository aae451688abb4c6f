/**
 * Fenced leases (docs/trading-rules.md §3 "One worker writes for a bot"): a worker writes for a bot only while the bot's lease row
 * still carries the fencing token (`bot_leases.epoch`) the worker claimed it with. The local deadline of a
 * lease (LeaseCoordinator) stops a healthy worker from trading past its lease; the token stops one that paused
 * (GC, a stalled host, a lost network) in the middle of a write or a booking and wakes after another worker
 * took the bot over. The check and the database that applies it to every write are `staleFences` and
 * `fencedDb` (leases.repo.ts); the runtime's writes take it through `fencedWrites` (runtime-writes.ts).
 */
export interface Fence {
  botId: string;
  /** The lease's fencing token when this worker claimed it. */
  epoch: number;
}

/** A write for a bot whose lease another worker took over since: nothing of it was written. */
export class FencedError extends Error {
  constructor(readonly botIds: readonly string[]) {
    super(`bot lease taken over by another worker; write refused (${botIds.join(', ')})`);
    this.name = 'FencedError';
  }
}

/** An order held back because this worker no longer trusts its lease of the bot (its local deadline passed). */
export class LeaseLapsedError extends Error {
  constructor(clientOrderId: string) {
    super(`bot lease not renewed in time; order ${clientOrderId} not sent`);
    this.name = 'LeaseLapsedError';
  }
}
