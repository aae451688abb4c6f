import { botCommands, botFills, botIntents, bots, type Db, type Tx } from '@gridbot/db';
import type { EngineState, Intent } from '@gridbot/engine';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { platformCredit } from '../modules/platform/platform-credit';
import { clientOrderIdOf } from './client-order-id';
import { GroupCommit } from './group-commit';

export type BotRow = typeof bots.$inferSelect;
export type IntentRow = typeof botIntents.$inferSelect;
export type CommandRow = typeof botCommands.$inferSelect;

/** What a fill writes beside the new state: the order-book row. */
export interface FillRecord {
  seq: number;
  side: 'buy' | 'sell';
  grid: number;
  price: string;
  qty: string;
  quote: string;
  fee: string;
  pnl: string | null;
  timeMs: number;
}

const asJson = (state: EngineState) => state as unknown as Record<string, unknown>;

/** Bots the runtime must run: Live or Pause, and not halted by the runtime itself. */
export async function loadActiveBots(db: Db, botId?: string): Promise<BotRow[]> {
  return db
    .select()
    .from(bots)
    .where(
      and(
        inArray(bots.status, ['Live', 'Pause']),
        isNull(bots.haltReason),
        botId === undefined ? undefined : eq(bots.id, botId),
      ),
    );
}

export async function openIntents(db: Db, botId: string): Promise<IntentRow[]> {
  return db
    .select()
    .from(botIntents)
    .where(and(eq(botIntents.botId, botId), inArray(botIntents.status, ['pending', 'unknown'])))
    .orderBy(asc(botIntents.seq));
}

function stateColumns(state: EngineState, lastPrice: number | null) {
  const stopped = state.status === 'Stopped' || state.status === 'Completed';
  return {
    engineState: asJson(state),
    stateVersion: sql`${bots.stateVersion} + 1`,
    status: stopped
      ? ('Stopped' as const)
      : state.status === 'Pause'
        ? ('Pause' as const)
        : ('Live' as const),
    stopReason: state.stopReason,
    ...(stopped
      ? {
          stoppedAt: sql`coalesce(${bots.stoppedAt}, now())`,
          closedPrice: lastPrice === null ? null : String(lastPrice),
        }
      : {}),
  };
}

interface StateWithIntents {
  botId: string;
  state: EngineState;
  intents: readonly Intent[];
  lastPrice: number;
}

/** Many bots' new states in one statement (the group commit of a tick). */
async function updateStates(tx: Tx, items: readonly StateWithIntents[]) {
  const rows = items.map((item) => {
    const stopped = item.state.status === 'Stopped' || item.state.status === 'Completed';
    const { status, stopReason } = stateColumns(item.state, item.lastPrice);
    return sql`(${item.botId}::uuid, ${JSON.stringify(item.state)}::jsonb, ${status}, ${stopReason}, ${stopped}::boolean, ${String(item.lastPrice)}::numeric)`;
  });
  await tx.execute(sql`
    update ${bots} as b set
      engine_state = v.state,
      state_version = b.state_version + 1,
      status = v.status,
      stop_reason = v.stop_reason,
      stopped_at = case when v.stopped then coalesce(b.stopped_at, now()) else b.stopped_at end,
      closed_price = case when v.stopped then v.closed else b.closed_price end
    from (values ${sql.join(rows, sql`, `)}) as v(id, state, status, stop_reason, stopped, closed)
    where b.id = v.id`);
}

async function writeStatesWithIntents(db: Db, items: readonly StateWithIntents[]) {
  // One bot has at most one write in flight (its runner is serial); keep the newest if that ever changes.
  const byBot = new Map(items.map((item) => [item.botId, item]));
  const intents = items.flatMap((item) =>
    item.intents.map((intent) => ({
      botId: item.botId,
      seq: intent.seq,
      clientOrderId: clientOrderIdOf(item.botId, intent.seq),
      kind: intent.type,
      payload: intent as unknown as Record<string, unknown>,
    })),
  );
  await db.transaction(async (tx) => {
    if (intents.length > 0) await tx.insert(botIntents).values(intents).onConflictDoNothing();
    await updateStates(tx, [...byBot.values()]);
  });
}

const intentWriters = new WeakMap<Db, GroupCommit<StateWithIntents>>();

/**
 * Writes the new state and its intents, before any of them is sent (DESIGN §3). Bots that trade on the
 * same tick share one transaction (group commit); the promise settles once this bot's rows are committed.
 */
export async function saveStateWithIntents(
  db: Db,
  botId: string,
  state: EngineState,
  intents: readonly Intent[],
  lastPrice: number,
) {
  let writer = intentWriters.get(db);
  if (!writer) {
    writer = new GroupCommit((items) => writeStatesWithIntents(db, items), 500);
    intentWriters.set(db, writer);
  }
  await writer.submit({ botId, state, intents, lastPrice });
}

export async function saveState(db: Db | Tx, botId: string, state: EngineState, lastPrice: number | null) {
  await db.update(bots).set(stateColumns(state, lastPrice)).where(eq(bots.id, botId));
}

/** Wakes the runners of bots that got commands from the runtime itself (the profit limit). */
const commandListeners = new WeakMap<Db, (botIds: string[]) => void>();
export function onCommandsQueued(db: Db, listener: (botIds: string[]) => void) {
  commandListeners.set(db, listener);
}

/** Queues a command for each of the user's Live or Pause grid bots; answers their ids. */
export async function queueForRunningGridBots(
  tx: Db | Tx,
  userId: string,
  type: string,
  payload: Record<string, unknown>,
): Promise<string[]> {
  const running = await tx
    .select({ id: bots.id })
    .from(bots)
    .where(
      and(
        eq(bots.userId, userId),
        inArray(bots.status, ['Live', 'Pause']),
        inArray(bots.botType, ['multigrid', 'scalping']),
      ),
    );
  if (running.length === 0) return [];
  await tx.insert(botCommands).values(running.map((b) => ({ botId: b.id, type, payload })));
  return running.map((b) => b.id);
}

interface FillWithState {
  botId: string;
  userId: string;
  fill: FillRecord;
  state: EngineState;
  lastPrice: number;
}

async function writeFills(db: Db, items: readonly FillWithState[]) {
  const notified: string[] = [];
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(botFills)
      .values(
        items.map(({ botId, userId, fill }) => ({
          ...fill,
          botId,
          userId,
          clientOrderId: clientOrderIdOf(botId, fill.seq),
        })),
      )
      .onConflictDoNothing()
      .returning({ botId: botFills.botId, seq: botFills.seq });
    // Profit limit (DESIGN §5, issue #8): each newly booked profit lowers availableCredit, in this transaction.
    const isNew = new Set(inserted.map((r) => `${r.botId}:${r.seq}`));
    const exhausted = new Set<string>();
    for (const { botId, userId, fill } of items) {
      if (!isNew.has(`${botId}:${fill.seq}`)) continue;
      const credit = await platformCredit.onProfitBooked(tx, userId, fill.pnl, botId);
      if (credit.exhausted) exhausted.add(userId);
    }
    for (const userId of exhausted) {
      notified.push(...(await queueForRunningGridBots(tx, userId, 'new_cycles', { allowed: false })));
    }
    const ended = items.map(({ botId, fill }) => sql`(${botId}::uuid, ${fill.seq}::integer)`);
    await tx.execute(sql`
      update ${botIntents} as i set status = 'filled', updated_at = now()
      from (values ${sql.join(ended, sql`, `)}) as v(bot_id, seq)
      where i.bot_id = v.bot_id and i.seq = v.seq`);
    await updateStates(
      tx,
      items.map(({ botId, state, lastPrice }) => ({ botId, state, intents: [], lastPrice })),
    );
  });
  if (notified.length > 0) commandListeners.get(db)?.(notified);
}

const fillWriters = new WeakMap<Db, GroupCommit<FillWithState>>();

/**
 * The fill, its intent's end and the bot's new state, in one transaction (DESIGN §3); fills of many bots
 * that arrive together share it (group commit). Idempotent per seq.
 */
export async function saveFill(
  db: Db,
  botId: string,
  userId: string,
  fill: FillRecord,
  state: EngineState,
  lastPrice: number,
) {
  let writer = fillWriters.get(db);
  if (!writer) {
    writer = new GroupCommit((items) => writeFills(db, items), 500);
    fillWriters.set(db, writer);
  }
  await writer.submit({ botId, userId, fill, state, lastPrice });
}

/** An intent that ended with nothing filled, and the state that forgot it. */
export async function saveIntentFailed(
  db: Db,
  botId: string,
  seq: number,
  error: string,
  state: EngineState,
  lastPrice: number | null,
) {
  await db.transaction(async (tx) => {
    await tx
      .update(botIntents)
      .set({ status: 'failed', lastError: error.slice(0, 500), updatedAt: new Date() })
      .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)));
    await saveState(tx, botId, state, lastPrice);
  });
}

/** Sent, outcome unknown (timeout, no answer): reconciliation asks the exchange later. */
export async function markIntentUnknown(db: Db, botId: string, seq: number, error: string) {
  await db
    .update(botIntents)
    .set({
      status: 'unknown',
      attempts: sql`${botIntents.attempts} + 1`,
      lastError: error.slice(0, 500),
      updatedAt: new Date(),
    })
    .where(and(eq(botIntents.botId, botId), eq(botIntents.seq, seq)));
}

/** Stops trading a bot with a reason the user sees on its page; its state stays as it is. */
export async function haltBot(db: Db, botId: string, reason: string) {
  await db
    .update(bots)
    .set({ haltReason: reason.slice(0, 300), status: 'Pause' })
    .where(eq(bots.id, botId));
}

export async function queuedCommands(db: Db, botId: string): Promise<CommandRow[]> {
  return db
    .select()
    .from(botCommands)
    .where(and(eq(botCommands.botId, botId), eq(botCommands.status, 'queued')))
    .orderBy(asc(botCommands.id));
}

export async function finishCommand(db: Db | Tx, id: number, error?: string) {
  await db
    .update(botCommands)
    .set({ status: error ? 'failed' : 'done', error: error ?? null, doneAt: new Date() })
    .where(eq(botCommands.id, id));
}
