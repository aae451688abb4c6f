import { botCommands, botFills, bots, type Db, RUNNING_PER_PAIR_INDEX, type Tx } from '@gridbot/db';
import { botMessages } from '@gridbot/shared';
import { and, asc, count, desc, eq, gte, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import { HttpError } from '../../lib/http-error';

export type BotRow = typeof bots.$inferSelect;
export type BotType = BotRow['botType'];
/** Grid bots; cycles share the table (bot_type 'cycle') but never appear where bots are listed. */
export const GRID_TYPES = ['multigrid', 'scalping'] as const;
const typeIs = (type: BotType | undefined) =>
  type === undefined ? inArray(bots.botType, [...GRID_TYPES]) : eq(bots.botType, type);
/** Copy BOTs ranks the grid bots and the range grids alike (docs/product.md §5). */
export const COPYABLE_TYPES = [...GRID_TYPES, 'range'] as const;
/** Every kind the bots table holds: grid bots, range grids and cycles. */
export const BOT_TYPES = [...COPYABLE_TYPES, 'cycle'] as const;
const copyable = inArray(bots.botType, [...COPYABLE_TYPES]);

/** The user's bot of this type, or undefined: another user's bot reads as absent (docs/trading-rules.md §3 → 404). */
export async function findUserBot(
  db: Db,
  userId: string,
  botId: string,
  type?: BotType,
): Promise<BotRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(botId)) return undefined;
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.id, botId), eq(bots.userId, userId), typeIs(type)))
    .limit(1);
  return row;
}

export async function listRunningBots(db: Db, userId: string, type?: BotType): Promise<BotRow[]> {
  return db
    .select()
    .from(bots)
    .where(and(eq(bots.userId, userId), inArray(bots.status, ['Live', 'Pause', 'Stopping']), typeIs(type)))
    .orderBy(desc(bots.createdAt));
}

/**
 * A bot row without its strategy snapshot, books, fill count and settled funding time (the dashboard cards never
 * show them).
 */
export type BotView = Omit<
  BotRow,
  | 'strategySnapshot'
  | 'profitBook'
  | 'lossBook'
  | 'fillCount'
  | 'fundedThroughMs'
  | 'positionClosedAt'
  | 'positionClosedPrice'
>;
/** A bot row without snapshot and engine state: what the dashboard polls list before the states. */
export type BotHead = Omit<BotView, 'engineState'>;

export const headColumns = {
  id: bots.id,
  userId: bots.userId,
  botType: bots.botType,
  strategyId: bots.strategyId,
  strategyName: bots.strategyName,
  symbol: bots.symbol,
  category: bots.category,
  status: bots.status,
  investment: bots.investment,
  leverage: bots.leverage,
  createdAt: bots.createdAt,
  stoppedAt: bots.stoppedAt,
  stateVersion: bots.stateVersion,
  haltReason: bots.haltReason,
  stopReason: bots.stopReason,
  closedPrice: bots.closedPrice,
  venue: bots.venue,
};

/** Statuses in which a bot or cycle still owns money in the wallet (it may buy or must sell). */
export const HOLDING_STATUSES = ['Live', 'Pause', 'Stopping'] as const;

/** The user's bots and cycles that hold money (committed funds), newest first, without their states. */
export async function holdingBotHeads(db: Db | Tx, userId: string) {
  return db
    .select({
      id: bots.id,
      botType: bots.botType,
      strategyName: bots.strategyName,
      symbol: bots.symbol,
      category: bots.category,
      investment: bots.investment,
      leverage: bots.leverage,
      stateVersion: bots.stateVersion,
    })
    .from(bots)
    .where(and(eq(bots.userId, userId), inArray(bots.status, [...HOLDING_STATUSES])))
    .orderBy(desc(bots.createdAt));
}

/** A `pendingRebuyReserves` row, with its user (the dashboard reads them for many users at once). */
export const rebuyReserveColumns = {
  userId: bots.userId,
  botId: botCommands.botId,
  reserveUsdt: sql<string>`${botCommands.payload}->>'reserveUsdt'`,
};
/** A re-buy's command that still holds its reserve. */
export const isPendingRebuy = and(
  eq(botCommands.type, 'missing_lots'),
  inArray(botCommands.status, ['queued', 'applied']),
  sql`${botCommands.payload}->>'reserveUsdt' is not null`,
);

/**
 * USDT set aside for re-buys that resumes chose and the runtime has not booked yet (a `missing_lots` command
 * queued or applied, with the `reserveUsdt` the resume found needed), per bot of the user.
 */
export async function pendingRebuyReserves(db: Db | Tx, userId: string) {
  return db
    .select(rebuyReserveColumns)
    .from(botCommands)
    .innerJoin(bots, eq(bots.id, botCommands.botId))
    .where(and(eq(bots.userId, userId), isPendingRebuy));
}

/** Engine states of some of the user's bots, with their versions. */
export async function engineStatesOf(db: Db | Tx, userId: string, botIds: string[]) {
  if (botIds.length === 0) return [];
  return db
    .select({ id: bots.id, stateVersion: bots.stateVersion, engineState: bots.engineState })
    .from(bots)
    .where(and(eq(bots.userId, userId), inArray(bots.id, botIds)));
}

/** These range grids of the user as their rows (the History row's figures: state, category, closing price). */
export async function rangeRowsOf(db: Db, userId: string, botIds: string[]): Promise<BotRow[]> {
  if (botIds.length === 0) return [];
  return db
    .select()
    .from(bots)
    .where(and(eq(bots.userId, userId), eq(bots.botType, 'range'), inArray(bots.id, botIds)));
}

export async function listStoppedBots(db: Db, userId: string, type: BotType): Promise<BotRow[]> {
  return db
    .select()
    .from(bots)
    .where(and(eq(bots.userId, userId), eq(bots.status, 'Stopped'), eq(bots.botType, type)))
    .orderBy(desc(bots.stoppedAt));
}

/**
 * Live bots of every user started before `startedBefore` (Copy BOTs ranks them), except the viewer's own,
 * optionally of one pair and category.
 */
export async function listAllLiveBots(
  db: Db,
  filter: {
    startedBefore: Date;
    exceptUserId: string;
    symbol?: string | undefined;
    category?: BotRow['category'] | undefined;
  },
  limit = 2000,
): Promise<BotRow[]> {
  return db
    .select()
    .from(bots)
    .where(
      and(
        eq(bots.status, 'Live'),
        copyable,
        lte(bots.createdAt, filter.startedBefore),
        ne(bots.userId, filter.exceptUserId),
        filter.symbol ? eq(bots.symbol, filter.symbol) : undefined,
        filter.category ? eq(bots.category, filter.category) : undefined,
      ),
    )
    .orderBy(asc(bots.createdAt), asc(bots.id))
    .limit(limit);
}

/** A Live bot or range grid of any user (Copy BOTs shows them anonymously). */
export async function findLiveBot(db: Db, botId: string): Promise<BotRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(botId)) return undefined;
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.id, botId), eq(bots.status, 'Live'), copyable))
    .limit(1);
  return row;
}

export async function runningBotOn(db: Db, userId: string, symbol: string, category: BotRow['category']) {
  const [row] = await db
    .select({ id: bots.id })
    .from(bots)
    .where(
      and(
        eq(bots.userId, userId),
        eq(bots.symbol, symbol),
        eq(bots.category, category),
        inArray(bots.status, ['Live', 'Pause', 'Stopping']),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** PostgreSQL's unique violation of the one-running-bot-per-pair index, bare or wrapped by Drizzle. */
function isRunningOnPair(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const { code, constraint, message } = current as {
      code?: unknown;
      constraint?: unknown;
      message?: unknown;
    };
    if (code === '23505')
      return constraint === RUNNING_PER_PAIR_INDEX || String(message).includes(RUNNING_PER_PAIR_INDEX);
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Writes a new running bot or cycle. The check before it (`runningBotOn`) gives the message early; this
 * insert is what decides when two starts race: the database's partial unique index lets one through.
 */
export async function insertBot(db: Db | Tx, row: typeof bots.$inferInsert): Promise<string> {
  try {
    const [created] = await db.insert(bots).values(row).returning({ id: bots.id });
    if (!created) throw new Error('insert into bots returned no row');
    return created.id;
  } catch (error) {
    if (isRunningOnPair(error)) throw new HttpError(400, botMessages.alreadyRunning(row.symbol));
    throw error;
  }
}

/** One page of the bot's fills, newest first (its total is the bot's `fillCount`). */
export async function fillsPage(db: Db, botId: string, page: number, pageSize: number) {
  return db
    .select()
    .from(botFills)
    .where(eq(botFills.botId, botId))
    .orderBy(desc(botFills.timeMs), desc(botFills.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/** Every fill of some of the user's bots, oldest first (scoped by the user: another user's bot has none). */
export async function fillsOf(db: Db, userId: string, botIds: readonly string[]) {
  if (botIds.length === 0) return [];
  return db
    .select({
      timeMs: botFills.timeMs,
      symbol: bots.symbol,
      side: botFills.side,
      price: botFills.price,
      qty: botFills.qty,
      quote: botFills.quote,
      fee: botFills.fee,
      feeAsset: botFills.feeAsset,
      feePaid: botFills.feePaid,
      pnl: botFills.pnl,
      venue: bots.venue,
    })
    .from(botFills)
    .innerJoin(bots, eq(bots.id, botFills.botId))
    .where(and(eq(botFills.userId, userId), eq(bots.userId, userId), inArray(botFills.botId, [...botIds])))
    .orderBy(asc(botFills.timeMs), asc(botFills.botId), asc(botFills.seq));
}

/** Fills per bot since `sinceMs`, for the 24 h trade counts of many bots at once. */
export async function fillCountsSince(
  db: Db,
  botIds: string[],
  sinceMs: number,
): Promise<Map<string, number>> {
  if (botIds.length === 0) return new Map();
  const rows = await db
    .select({ botId: botFills.botId, n: count() })
    .from(botFills)
    .where(and(inArray(botFills.botId, botIds), gte(botFills.timeMs, sinceMs)))
    .groupBy(botFills.botId);
  return new Map(rows.map((r) => [r.botId, r.n]));
}

export async function queueCommand(
  db: Db | Tx,
  botId: string,
  type: string,
  payload: Record<string, unknown>,
) {
  const [row] = await db
    .insert(botCommands)
    .values({ botId, type, payload })
    .returning({ id: botCommands.id });
  if (!row) throw new Error('insert into bot_commands returned no row');
  return row.id;
}

export async function commandStatus(db: Db, id: number) {
  const [row] = await db
    .select({ status: botCommands.status, error: botCommands.error })
    .from(botCommands)
    .where(eq(botCommands.id, id));
  return row;
}

/**
 * Lets a bot the runtime halted trade again in `status`; false when it is no longer halted or was stopped
 * meanwhile (a stop racing the resume wins).
 */
export async function clearHalt(
  db: Db | Tx,
  botId: string,
  status: 'Live' | 'Pause' | 'Stopping',
): Promise<boolean> {
  const [resumed] = await db
    .update(bots)
    .set({ haltReason: null, status })
    .where(and(eq(bots.id, botId), isNotNull(bots.haltReason), ne(bots.status, 'Stopped')))
    .returning({ id: bots.id });
  return resumed !== undefined;
}

/**
 * Adds `amount` USDT to a Live or Pause bot's investment, so what the bot commits grows with it; answers the
 * new investment, or null when the bot is stopping or stopped (a stop racing the addition wins).
 */
export async function raiseInvestment(db: Db | Tx, botId: string, amount: string): Promise<string | null> {
  const [row] = await db
    .update(bots)
    .set({ investment: sql`${bots.investment} + ${amount}::numeric` })
    .where(and(eq(bots.id, botId), inArray(bots.status, ['Live', 'Pause'])))
    .returning({ investment: bots.investment });
  return row?.investment ?? null;
}

/** Takes back an addition the bot refused (`raiseInvestment`), whatever the bot's status now. */
export async function lowerInvestment(db: Db | Tx, botId: string, amount: string): Promise<void> {
  await db
    .update(bots)
    .set({ investment: sql`${bots.investment} - ${amount}::numeric` })
    .where(eq(bots.id, botId));
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

/** A lease row for the bot (free), if it has none; the API writes it when a bot starts (ROLE=api). */
export async function ensureLease(db: Db, botId: string): Promise<void> {
  await db.execute(sql`insert into bot_leases (bot_id) values (${botId}) on conflict do nothing`);
}

/** Whether the user has a Live, Pause or Stopping bot or cycle (cycles are bots rows with bot_type 'cycle'). */
export async function hasRunningBot(db: Db, userId: string): Promise<boolean> {
  const [bot] = await db
    .select({ id: bots.id })
    .from(bots)
    .where(and(eq(bots.userId, userId), inArray(bots.status, [...HOLDING_STATUSES])))
    .limit(1);
  return bot !== undefined;
}

/** Whether the user has a futures bot or cycle that is not stopped: then the key needs futures rights. */
export async function hasFuturesBots(db: Db | Tx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: bots.id })
    .from(bots)
    .where(and(eq(bots.userId, userId), eq(bots.category, 'Future'), ne(bots.status, 'Stopped')))
    .limit(1);
  return row !== undefined;
}

/** The owner of each of these bots. */
export async function ownersOf(db: Db, botIds: readonly string[]) {
  return db
    .select({ id: bots.id, userId: bots.userId })
    .from(bots)
    .where(inArray(bots.id, [...new Set(botIds)]));
}
