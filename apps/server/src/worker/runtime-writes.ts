import type { Db } from '@gridbot/db';
import type { Intent, RangeIntent } from '@gridbot/engine';
import type { BotWriteListener } from '../modules/bots';
import type { DbWriteKind } from '../ops/metrics';
import { type StateWithIntents, writeCommandApplied, writeHalt } from './bot-state.repo';
import { type RuntimeState, statusOf } from './bot-status';
import { faultPoint } from './fault-points';
import { type FillRecord, type FillWithState, type PnlOnRow, writeFills } from './fills.repo';
import { type FundingRecord, writeFunding } from './funding.repo';
import { GroupCommit } from './group-commit';
import { writeStatesWithIntents } from './intents.repo';
import { type Fence, FencedError } from './lease-fence';
import { fencedDb } from './leases.repo';

/** Who hears of the runtime's writes; the supervisor wires them (each optional). */
export interface WriteHooks {
  /** Committed fills, states with intents and halts, for the push channel and notifications. */
  onBotsWritten?: BotWriteListener;
  /** Bots that got commands from the runtime itself (the profit limit): their runners apply them now. */
  onCommandsQueued?: (botIds: string[]) => void;
  /** How long each grouped write took (GET /metrics). */
  observe?: (kind: DbWriteKind, seconds: number) => void;
}

/**
 * The runtime's hot writes in one process: a group commit per kind of write, so bots that trade together share
 * statements, and the hooks that hear of them. The supervisor builds one (`createRuntimeWrites`) and hands it
 * to its runners; the functions below that go through a group commit or announce their writes take it
 * instead of the database.
 */
export interface RuntimeWrites {
  /** The database as this bot's writes see it: fenced by its lease (`fencedWrites`) in leased mode. */
  db: Db;
  hooks: WriteHooks;
  intents: Grouped<StateWithIntents>;
  states: Grouped<StateWithIntents>;
  fills: Grouped<FillWithState>;
  /** The lease the writes of one bot's runner are fenced by (leased mode); none in one process (ROLE=all). */
  fence?: Fence;
  /** The runtime's clock (`BotRunnerDeps.now`, epoch ms): when commands end and when listeners hear of writes. */
  now: () => number;
}

/** A grouped write of a bot, with the lease its writer holds (leased mode). */
type Fenced<T> = T & { fence?: Fence };
type Grouped<T> = Pick<GroupCommit<Fenced<T>>, 'submit'>;

export function createRuntimeWrites(db: Db, now: () => number, hooks: WriteHooks = {}): RuntimeWrites {
  const timed = <T extends { fence?: Fence }>(
    kind: DbWriteKind,
    write: (items: readonly T[], fences: readonly Fence[]) => Promise<void>,
    concurrency: number,
  ) =>
    new GroupCommit<T>(
      async (items) => {
        const started = performance.now();
        // One check of every fenced bot of the batch, in the batch's statement or transaction. A stale one
        // fails the batch; the group commit then writes each request alone, so only the stale writer's is
        // refused.
        const fences = items.flatMap((item) => (item.fence ? [item.fence] : []));
        await write(items, fences);
        hooks.observe?.(kind, (performance.now() - started) / 1000);
      },
      500,
      concurrency,
    );
  return {
    db,
    hooks,
    now,
    intents: timed<Fenced<StateWithIntents>>(
      'intents',
      async (items, fences) => {
        await writeStatesWithIntents(db, items, new Date(now()), fences);
        announce(hooks, items, 'state', now());
      },
      4,
    ),
    // Its own group commit: flushes (hundreds a second at 5,000 bots) never lengthen the batches that intents
    // wait for before their orders go out.
    states: timed<Fenced<StateWithIntents>>(
      'states',
      (items, fences) => writeStatesWithIntents(db, items, new Date(now()), fences),
      1,
    ),
    fills: timed<Fenced<FillWithState>>(
      'fills',
      // The lease check runs in the booking's statement, which a booking that lowers the profit limit runs in a
      // transaction of its own.
      async (items, fences) => {
        notifyCommandsQueued(hooks, await writeFills(db, items, new Date(now()), fences));
        announce(hooks, items, 'fill', now());
      },
      4,
    ),
  };
}

/**
 * The writes of one bot's runner in leased mode: each one checks that the bot's lease still carries
 * `fence.epoch`, the grouped ones once per bot per batch inside their one statement (`statementFence`), the
 * others in a transaction of their own (`fencedDb`). A refused write calls `onFenced` before its caller hears
 * of the error: the worker lets the bot go at once.
 */
export function fencedWrites(writes: RuntimeWrites, fence: Fence, onFenced: () => void): RuntimeWrites {
  const guarded = <T>(group: Grouped<T>): Grouped<T> => ({
    submit: (item) => refuseStale(group.submit({ ...item, fence }), onFenced),
  });
  return {
    ...writes,
    db: fencedDb(writes.db, [fence], onFenced),
    intents: guarded(writes.intents),
    states: guarded(writes.states),
    fills: guarded(writes.fills),
    fence,
  };
}

function refuseStale<T>(write: Promise<T>, onFenced: () => void): Promise<T> {
  return write.catch((error: unknown) => {
    if (error instanceof FencedError) onFenced();
    throw error;
  });
}

/**
 * Writes the new state and its intents, before any of them is sent (docs/trading-rules.md §3). Bots that trade on the
 * same tick share a few statements written in parallel (group commit); the promise settles once this
 * bot's rows are committed.
 */
export async function saveStateWithIntents(
  writes: RuntimeWrites,
  botId: string,
  state: RuntimeState,
  intents: readonly (Intent | RangeIntent)[],
  lastPrice: number,
) {
  const side = sideOf(intents);
  faultPoint('intent-write', { botId, side });
  await writes.intents.submit({ botId, state, intents, lastPrice });
  faultPoint('intent-written', { botId, side });
}

/**
 * A state that moved without an order (trailing, statistics), batched so flushing thousands of bots costs
 * a few statements instead of one each, in its own group commit. A runner awaits its flush, so a bot never
 * has a flush and an intent write in flight at once.
 */
export async function saveStateBatched(
  writes: RuntimeWrites,
  botId: string,
  state: RuntimeState,
  lastPrice: number | null,
) {
  await writes.states.submit({ botId, state, intents: [], lastPrice });
}

/**
 * The fill, its intent's end and the bot's new state, in one transaction (docs/trading-rules.md §3); fills of many bots
 * that arrive together share it (group commit). Idempotent per seq.
 */
export async function saveFill(
  writes: RuntimeWrites,
  botId: string,
  userId: string,
  fill: FillRecord | PnlOnRow,
  state: RuntimeState,
  lastPrice: number,
) {
  faultPoint('order-filled', { botId, side: fill.side });
  await writes.fills.submit({ botId, userId, fills: [fill], state, lastPrice });
  faultPoint('fill-booked', { botId, side: fill.side });
}

/**
 * A range grid's fills booked on one line and the intents the state that books them holds (its answers to
 * them), in one transaction (docs/trading-rules.md §3): the intents are written before their orders are sent,
 * and the fills with the state that books them, so a crash before this write leaves the fills to be booked by
 * reconciliation and nothing sent, and a crash after it leaves both written. Idempotent per seq.
 */
export async function saveFillsWithIntents(
  writes: RuntimeWrites,
  botId: string,
  userId: string,
  fills: readonly (FillRecord | PnlOnRow)[],
  state: RuntimeState,
  intents: readonly RangeIntent[],
  lastPrice: number,
) {
  for (const fill of fills) faultPoint('order-filled', { botId, side: fill.side });
  if (intents.length > 0) faultPoint('intent-write', { botId, side: sideOf(intents) });
  await writes.fills.submit({ botId, userId, fills, state, lastPrice, intents });
  for (const fill of fills) faultPoint('fill-booked', { botId, side: fill.side });
  if (intents.length > 0) faultPoint('intent-written', { botId, side: sideOf(intents) });
}

function sideOf(intents: readonly (Intent | RangeIntent)[]): 'buy' | 'sell' {
  return intents.some((intent) => intent.type === 'MarketBuy') ? 'buy' : 'sell';
}

/**
 * The funding row and the bot's state that books it (`writeFunding`), heard of like a fill. Answers false,
 * writing nothing, when the bot already booked this funding time.
 */
export async function saveFunding(
  writes: RuntimeWrites,
  botId: string,
  userId: string,
  funding: FundingRecord,
  state: RuntimeState,
  lastPrice: number,
): Promise<boolean> {
  const { db, hooks, now } = writes;
  const { booked, notified } = await writeFunding(
    db,
    botId,
    userId,
    funding,
    state,
    lastPrice,
    new Date(now()),
  );
  notifyCommandsQueued(hooks, notified);
  if (booked) announce(hooks, [{ botId, userId, state }], 'fill', now());
  return booked;
}

/** Halts the bot (`writeHalt`: the reason its page shows) and says so to the listeners. */
export async function haltBot(writes: RuntimeWrites, botId: string, reason: string) {
  const at = writes.now();
  await writeHalt(writes.db, botId, reason, new Date(at));
  writes.hooks.onBotsWritten?.([{ botId, change: 'state', status: 'Pause', at }]);
}

/** A command applied with the state it made (`writeCommandApplied`); bots the profit limit told hear of it. */
export async function saveCommandApplied(
  { db, hooks, now }: Pick<RuntimeWrites, 'db' | 'hooks' | 'now'>,
  botId: string,
  commandId: number,
  state: RuntimeState,
  lastPrice: number | null,
  awaitsSale: boolean,
  /** Profit (or loss, < 0) the command booked without a sale (missing lots dropped), and whose bot it is. */
  booked?: { userId: string; pnl: string },
): Promise<void> {
  const notified = await writeCommandApplied(
    db,
    botId,
    commandId,
    state,
    lastPrice,
    awaitsSale,
    new Date(now()),
    booked,
  );
  notifyCommandsQueued(hooks, notified);
}

function notifyCommandsQueued(hooks: WriteHooks, botIds: string[]) {
  if (botIds.length > 0) hooks.onCommandsQueued?.(botIds);
}

function announce(
  hooks: WriteHooks,
  items: readonly { botId: string; userId?: string; state: RuntimeState }[],
  change: 'fill' | 'state',
  at: number,
) {
  const listener = hooks.onBotsWritten;
  if (!listener || items.length === 0) return;
  listener(
    items.map((item) => ({
      botId: item.botId,
      userId: item.userId,
      change,
      status: statusOf(item.state),
      at,
    })),
  );
}
