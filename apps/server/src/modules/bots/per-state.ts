/**
 * A value derived from one stored engine state, computed once per state object. The states the screens poll
 * come from BotStateCache: shared between requests and never modified, one object per version. So a bot that
 * did not trade since the last poll answers its figures from here, and a new version (a new object) computes
 * them anew. A state read afresh for one request is a new object too: its values live as long as it does.
 *
 * `inputs` lists what else of the bot row the value depends on (its investment, say): a row whose inputs differ
 * from those the value was computed with computes it anew.
 */
export function perState<Row extends { engineState: unknown }, T>(
  compute: (row: Row) => T,
  inputs: (row: Row) => readonly unknown[] = () => [],
): (row: Row) => T {
  const memo = new WeakMap<object, { inputs: readonly unknown[]; value: T }>();
  return (row) => {
    const state = row.engineState;
    if (typeof state !== 'object' || state === null) return compute(row);
    const now = inputs(row);
    const known = memo.get(state);
    if (known && sameInputs(known.inputs, now)) return known.value;
    const value = compute(row);
    memo.set(state, { inputs: now, value });
    return value;
  };
}

function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (!Object.is(a[i], b[i])) return false;
  return true;
}
