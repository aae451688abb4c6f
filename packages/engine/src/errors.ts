/**
 * Thrown for transitions that cannot happen when the engine and its runtime are correct (docs/contributing.md §3):
 * a fill for an unknown intent, a sell of more than is held, a status change the table does not allow.
 * Expected outcomes (stoploss hit, order below min notional) are return values, never this error.
 */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
}

/** Throws `InvariantError` with `message` unless `condition` holds. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantError(message);
}
