import { bots, type Db, strategies, type Tx } from '@gridbot/db';
import type { StrategyKind, StrategyParams } from '@gridbot/shared';
import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';

type Conn = Db | Tx;
export type StrategyRow = typeof strategies.$inferSelect;

const RUNNING = ['Live', 'Pause', 'Stopping'] as const;
const sameName = (name: string) => sql`lower(${strategies.name}) = ${name.trim().toLowerCase()}`;

/** The user's own strategy of this kind and name (any case), or undefined. */
export async function findOwnStrategy(
  db: Conn,
  userId: string,
  kind: StrategyKind,
  name: string,
): Promise<StrategyRow | undefined> {
  const [row] = await db
    .select()
    .from(strategies)
    .where(and(eq(strategies.userId, userId), eq(strategies.kind, kind), sameName(name)))
    .limit(1);
  return row;
}

/** The system strategy of this kind and name (any case), or undefined. */
export async function findSystemStrategy(
  db: Conn,
  kind: StrategyKind,
  name: string,
): Promise<StrategyRow | undefined> {
  const [row] = await db
    .select()
    .from(strategies)
    .where(and(isNull(strategies.userId), eq(strategies.kind, kind), sameName(name)))
    .limit(1);
  return row;
}

/** The user's own strategies of a kind, newest first. */
export async function listOwnStrategies(
  db: Conn,
  userId: string,
  kind: StrategyKind,
): Promise<StrategyRow[]> {
  return db
    .select()
    .from(strategies)
    .where(and(eq(strategies.userId, userId), eq(strategies.kind, kind)))
    .orderBy(desc(strategies.createdAt), asc(strategies.name));
}

/** The system strategies of a kind, by name. */
export async function listSystemStrategies(db: Conn, kind: StrategyKind): Promise<StrategyRow[]> {
  return db
    .select()
    .from(strategies)
    .where(and(isNull(strategies.userId), eq(strategies.kind, kind)))
    .orderBy(asc(strategies.name));
}

export interface NewStrategy {
  kind: StrategyKind;
  name: string;
  params: StrategyParams;
}

/** Inserts an own strategy; a name taken by the user (any case) fails on the unique index (23505). */
export async function insertStrategy(db: Conn, userId: string, row: NewStrategy): Promise<StrategyRow> {
  const [created] = await db
    .insert(strategies)
    .values({ userId, kind: row.kind, name: row.name, noOfGrids: row.params.No_of_order, params: row.params })
    .returning();
  if (!created) throw new Error('insert into strategies returned no row');
  return created;
}

/** Replaces the parameters of the user's own strategy; undefined when it is not theirs. */
export async function updateStrategyParams(
  db: Conn,
  userId: string,
  strategyId: string,
  params: StrategyParams,
  now: Date,
): Promise<StrategyRow | undefined> {
  const [row] = await db
    .update(strategies)
    .set({ params, noOfGrids: params.No_of_order, updatedAt: now })
    .where(and(eq(strategies.id, strategyId), eq(strategies.userId, userId)))
    .returning();
  return row;
}

/**
 * Bots of this user running (Live or Pause) on the strategy: by id, or by kind and name for a bot row that
 * was written without the id.
 */
function runningBotsOf(userId: string, strategy: StrategyRow): SQL | undefined {
  return and(
    eq(bots.userId, userId),
    inArray(bots.status, [...RUNNING]),
    or(
      eq(bots.strategyId, strategy.id),
      and(
        isNull(bots.strategyId),
        eq(bots.botType, strategy.kind),
        sql`lower(${bots.strategyName}) = ${strategy.name.toLowerCase()}`,
      ),
    ),
  );
}

/** Whether one of the user's Live or Pause bots runs this strategy (docs/trading-rules.md §3: reads go through the user). */
export async function isStrategyInUse(db: Conn, userId: string, strategy: StrategyRow): Promise<boolean> {
  const [row] = await db.select({ id: bots.id }).from(bots).where(runningBotsOf(userId, strategy)).limit(1);
  return row !== undefined;
}

/**
 * Deletes the user's own strategy unless a running bot uses it, in one statement so a check and a delete
 * cannot be split by a bot starting in between. Answers 'deleted' or 'in-use'.
 */
export async function deleteStrategyUnlessInUse(
  db: Conn,
  userId: string,
  strategy: StrategyRow,
): Promise<'deleted' | 'in-use'> {
  const deleted = await db
    .delete(strategies)
    .where(
      and(
        eq(strategies.id, strategy.id),
        eq(strategies.userId, userId),
        sql`NOT EXISTS (SELECT 1 FROM ${bots} WHERE ${runningBotsOf(userId, strategy)})`,
      ),
    )
    .returning({ id: strategies.id });
  return deleted.length > 0 ? 'deleted' : 'in-use';
}

/** Names of the user's own strategies and the system ones of this kind, lower-cased. */
export async function takenNames(db: Conn, userId: string, kind: StrategyKind): Promise<Set<string>> {
  const rows = await db
    .select({ name: strategies.name })
    .from(strategies)
    .where(and(eq(strategies.kind, kind), or(eq(strategies.userId, userId), isNull(strategies.userId))));
  return new Set(rows.map((r) => r.name.toLowerCase()));
}

/** True for PostgreSQL's unique-violation error, bare or wrapped by Drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
