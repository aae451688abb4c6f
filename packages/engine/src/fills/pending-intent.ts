/**
 * Resolving a pending intent, for every bot kind. Each intent is resolved once: a fill or failure for a `seq`
 * that is no longer pending (already applied) changes nothing.
 *
 * A failed or rejected intent (nothing filled) leaves the bot as if it had not been issued
 * (docs/trading-rules.md §3): a buy is dropped, so a later tick may buy again; a sell's lots return to the
 * stack, and a stop-and-sell it carried out is asked for again. Only what the bot's status does differs
 * between kinds, so each kind passes its `FailureRules`.
 */
import type { MaintBracket } from '@gridbot/shared';
import { InvariantError, invariant } from '../errors';
import type { Account, Lot, PendingIntent } from '../types';
import { bracketsOf, insertLots, withOpenTotals } from './ledger';

/** Index of the pending intent `seq`; -1 for an intent already resolved; throws for an unknown one. */
export function pendingIndex(pending: readonly PendingIntent[], seq: number, lastSeq: number): number {
  const i = pending.findIndex((p) => p.intent.seq === seq);
  if (i < 0 && (seq > lastSeq || seq < 1)) throw new InvariantError(`fill for unknown intent ${seq}`);
  return i;
}

/**
 * The pending intent `seq` taken out of `state.pending`: the entry and the pending intents left; undefined for an
 * intent already resolved; throws for an unknown one.
 */
export function takePending(
  state: { pending: readonly PendingIntent[]; seq: number },
  seq: number,
): { entry: PendingIntent; pending: PendingIntent[] } | undefined {
  const i = pendingIndex(state.pending, seq, state.seq);
  if (i < 0) return undefined;
  return { entry: state.pending[i] as PendingIntent, pending: state.pending.filter((_, j) => j !== i) };
}

/** The parts of a bot's state that a failed intent changes in the same way for every kind. */
export interface IntentHolder {
  seq: number;
  pending: PendingIntent[];
  lots: Lot[];
  exitRequest: 'stop_and_sell' | null;
  account: Account;
  market: string;
  maintMarginRate: number;
  maintBrackets?: readonly MaintBracket[];
}

/** What one bot kind does when its intent fails. */
export interface FailureRules<S extends IntentHolder> {
  /** The buy `entry` failed: the state without it (`pending` no longer holds it). */
  buyFailed(state: S, pending: PendingIntent[], entry: PendingIntent): S;
  /** A sell failed: the kind's status fields after it, decided on the state before the failure. */
  sellFailed(state: S, entry: PendingIntent): Partial<S>;
}

/** Intent `seq` failed (nothing filled); an intent already resolved leaves the state as it is. */
export function applyIntentFailed<S extends IntentHolder>(state: S, seq: number, rules: FailureRules<S>): S {
  const taken = takePending(state, seq);
  return taken ? failPending(state, taken.entry, taken.pending, rules) : state;
}

/** The pending `entry` failed; `pending` is the state's pending intents without it. */
export function failPending<S extends IntentHolder>(
  state: S,
  entry: PendingIntent,
  pending: PendingIntent[],
  rules: FailureRules<S>,
): S {
  const intent = entry.intent;
  if (intent.type === 'MarketBuy') return rules.buyFailed(state, pending, entry);
  invariant(intent.type !== 'RecordLiquidation', 'a liquidation cannot fail');
  const lots = insertLots(
    state.lots,
    entry.lots.map((l) => ({ ...l })),
  );
  const exitRequest = intent.reason === 'manual_sell' ? 'stop_and_sell' : state.exitRequest;
  const account = withOpenTotals(state.account, lots, pending, bracketsOf(state));
  return { ...state, pending, lots, exitRequest, account, ...rules.sellFailed(state, entry) };
}
