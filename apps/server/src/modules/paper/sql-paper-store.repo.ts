import {
  type Db,
  paperAccounts,
  paperBalances,
  paperLedger,
  paperLeverage,
  paperOrders,
  paperPositions,
  type Tx,
} from '@gridbot/db';
import type {
  ApplyResult,
  LedgerEntry,
  OpenOrderFilter,
  PaperBalanceRow,
  PaperChange,
  PaperOrderRow,
  PaperPositionRow,
  PaperStore,
  WalletKind,
} from '@gridbot/exchange';
import { money } from '@gridbot/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import { anyOf } from '../../lib/any-of.repo';
import { batchedRead, byKey, distinct } from '../../lib/batched-read';
import { Batcher } from '../../lib/batcher';
import { applyBatch } from './paper-batch.repo';
import { toOrderRecord } from './paper-order-record';

type Conn = Db | Tx;

/** Thrown inside a transaction to roll it back and answer `result` instead. */
class Rollback extends Error {
  constructor(readonly result: Exclude<ApplyResult, { ok: true }>) {
    super('paper store rollback');
  }
}

// numeric comes back with the scale of its inputs ('9900.000'); the port speaks canonical decimals.
const dec = (value: string) => money(value).toFixed();
const decOrUndefined = (value: string | null) => (value === null ? undefined : dec(value));

type OrderRecord = typeof paperOrders.$inferSelect;
type PositionRecord = typeof paperPositions.$inferSelect;

function toOrderRow(r: OrderRecord): PaperOrderRow {
  return {
    userId: r.userId,
    market: r.market,
    symbol: r.symbol,
    clientOrderId: r.clientOrderId,
    exchangeOrderId: r.exchangeOrderId,
    side: r.side,
    type: r.type,
    status: r.status,
    price: decOrUndefined(r.price),
    quantity: dec(r.quantity),
    filledQuantity: dec(r.filledQuantity),
    filledQuote: dec(r.filledQuote),
    averagePrice: decOrUndefined(r.averagePrice),
    fee: dec(r.fee),
    feeAsset: r.feeAsset,
    createdMs: r.createdMs,
    updatedMs: r.updatedMs,
    leverage: r.leverage ?? undefined,
    reduceOnly: r.reduceOnly,
    reservedAsset: r.reservedAsset ?? undefined,
    reserved: dec(r.reserved),
  };
}

function toPositionRow(r: PositionRecord): PaperPositionRow {
  return {
    ...r,
    quantity: dec(r.quantity),
    entryNotional: dec(r.entryNotional),
    isolatedMargin: dec(r.isolatedMargin),
    liquidationPrice: dec(r.liquidationPrice),
  };
}

/** Many users' balances in one statement when their requests meet (see batched-read.ts). */
const balanceReads = (db: Db) => {
  const statement = db
    .select()
    .from(paperBalances)
    .where(anyOf(paperBalances.userId, 'userIds', 'text'))
    .prepare('paper_balances_of');
  return batchedRead(async (userIds: readonly string[]) => {
    const rowsOf = byKey(await statement.execute({ userIds: distinct(userIds) }), (row) => row.userId);
    return userIds.map(rowsOf);
  });
};

/**
 * `PaperStore` on PostgreSQL or PGlite (the port's own header describes the contract). Each `apply` is one
 * transaction: balance moves are atomic `UPDATE … RETURNING` so concurrent writers from several processes
 * can never drive a balance negative, and the ledger rows go in with them.
 */
export class SqlPaperStore implements PaperStore {
  private batcher: Batcher<PaperChange, ApplyResult> | undefined;
  private balanceBatch: ReturnType<typeof balanceReads> | undefined;

  constructor(private readonly db: Db) {}

  async ensureAccount(
    userId: string,
    funds: ReadonlyArray<{ wallet: WalletKind; asset: string; amount: string }>,
    tsMs: number,
  ): Promise<{ created: boolean }> {
    return this.db.transaction(async (tx) => {
      const inserted = await tx
        .insert(paperAccounts)
        .values({ userId })
        .onConflictDoNothing()
        .returning({ userId: paperAccounts.userId });
      if (inserted.length === 0) return { created: false };
      for (const fund of funds) {
        await addToBalance(tx, userId, fund.wallet, fund.asset, fund.amount, '0');
        await tx.insert(paperLedger).values({
          userId,
          wallet: fund.wallet,
          asset: fund.asset,
          amount: fund.amount,
          kind: 'deposit',
          refId: 'start',
          tsMs,
        });
      }
      return { created: true };
    });
  }

  /** Balances are read for many users at once when their requests meet (the dashboard's funds pie). */
  async balances(userId: string): Promise<PaperBalanceRow[]> {
    this.balanceBatch ??= balanceReads(this.db);
    const rows = await this.balanceBatch.submit(userId);
    return rows.map((r) => ({ wallet: r.wallet, asset: r.asset, free: dec(r.free), locked: dec(r.locked) }));
  }

  async order(userId: string, clientOrderId: string): Promise<PaperOrderRow | undefined> {
    return findOrder(this.db, userId, clientOrderId);
  }

  async openOrders(filter: OpenOrderFilter = {}): Promise<PaperOrderRow[]> {
    const rows = await this.db
      .select()
      .from(paperOrders)
      .where(
        and(
          eq(paperOrders.status, 'NEW'),
          filter.userId === undefined ? undefined : eq(paperOrders.userId, filter.userId),
          filter.market === undefined ? undefined : eq(paperOrders.market, filter.market),
          filter.symbol === undefined ? undefined : eq(paperOrders.symbol, filter.symbol),
        ),
      )
      .orderBy(asc(paperOrders.createdMs));
    return rows.map(toOrderRow);
  }

  async position(userId: string, symbol: string): Promise<PaperPositionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(paperPositions)
      .where(and(eq(paperPositions.userId, userId), eq(paperPositions.symbol, symbol)));
    return row ? toPositionRow(row) : undefined;
  }

  async positions(filter: { userId?: string; symbol?: string } = {}): Promise<PaperPositionRow[]> {
    const rows = await this.db
      .select()
      .from(paperPositions)
      .where(
        and(
          filter.userId === undefined ? undefined : eq(paperPositions.userId, filter.userId),
          filter.symbol === undefined ? undefined : eq(paperPositions.symbol, filter.symbol),
        ),
      );
    return rows.map(toPositionRow);
  }

  async leverage(userId: string, symbol: string): Promise<number | undefined> {
    const [row] = await this.db
      .select({ leverage: paperLeverage.leverage })
      .from(paperLeverage)
      .where(and(eq(paperLeverage.userId, userId), eq(paperLeverage.symbol, symbol)));
    return row?.leverage;
  }

  async setLeverage(userId: string, symbol: string, leverage: number): Promise<void> {
    await this.db
      .insert(paperLeverage)
      .values({ userId, symbol, leverage })
      .onConflictDoUpdate({ target: [paperLeverage.userId, paperLeverage.symbol], set: { leverage } });
  }

  async ledger(userId: string): Promise<LedgerEntry[]> {
    const rows = await this.db
      .select()
      .from(paperLedger)
      .where(eq(paperLedger.userId, userId))
      .orderBy(asc(paperLedger.id));
    return rows.map((r) => ({ ...r, amount: dec(r.amount), kind: r.kind as LedgerEntry['kind'] }));
  }

  async apply(change: PaperChange): Promise<ApplyResult> {
    // Position writes carry optimistic versions checked row by row, and a change applied at most once is
    // checked against the ledger: those go alone.
    if (change.position || change.once) return this.applyAlone(change);
    this.batcher ??= batchedApply(this.db, (one) => this.applyAlone(one));
    return this.batcher.submit(change);
  }

  private async applyAlone(change: PaperChange): Promise<ApplyResult> {
    try {
      await this.db.transaction((tx) => applyInTx(tx, change));
      return { ok: true };
    } catch (error) {
      if (error instanceof Rollback) return error.result;
      // Another writer's copy of the same once-only change got in first (paper_ledger_funding_ref_idx).
      if (change.once && isUniqueViolation(error)) return { ok: false, reason: 'already_applied' };
      throw error;
    }
  }
}

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === '23505' ||
  (error as { cause?: { code?: string } }).cause?.code === '23505';

/**
 * Group commit of the paper exchange: changes that arrive while writes are in flight (or in the same turn
 * of the event loop) are written by one `applyBatch`, two at a time, so a tick's fills need not wait behind
 * a write that a busy event loop holds up. A user's changes still apply one after another: at most one per
 * user is in a batch or in flight (the fills of different orders aside, `batchKey`). Two batches lock the
 * balance rows they share in the same order, so one waits for the other and they never deadlock. A batch
 * that cannot apply as a whole (a duplicate order, a balance below zero, a deadlock with another process) is
 * applied change by change, so each caller gets its own answer. A single change goes through `applyBatch`
 * too: one statement beats the per-change transaction of five to eight.
 */
function batchedApply(
  db: Db,
  alone: (change: PaperChange) => Promise<ApplyResult>,
): Batcher<PaperChange, ApplyResult> {
  return new Batcher<PaperChange, ApplyResult>(
    async (changes) => {
      if (!(await applyBatch(db, changes))) throw new Error('the batch does not apply as a whole');
      return changes.map(() => ({ ok: true }));
    },
    { maxBatch: 500, concurrency: 2, keyOf: batchKey, alone },
  );
}

/**
 * Changes that may share a batch have different keys: a user's changes apply one after another, except the
 * fills of different orders (each moves only what its order reserved, and the batch sums a balance's moves),
 * which the paper exchange sends together when one tick crosses several of the user's orders.
 */
function batchKey(change: PaperChange): string {
  const order = change.order;
  return order?.op === 'update' && order.expectStatus === 'NEW'
    ? `${change.userId}\u0000${order.row.clientOrderId}`
    : change.userId;
}

async function findOrder(db: Conn, userId: string, clientOrderId: string) {
  const [row] = await db
    .select()
    .from(paperOrders)
    .where(and(eq(paperOrders.userId, userId), eq(paperOrders.clientOrderId, clientOrderId)));
  return row ? toOrderRow(row) : undefined;
}

/** Adds deltas to a balance row (creating it at zero) and answers the new free and locked. */
async function addToBalance(
  tx: Tx,
  userId: string,
  wallet: WalletKind,
  asset: string,
  freeDelta: string,
  lockedDelta: string,
) {
  const [row] = await tx
    .insert(paperBalances)
    .values({ userId, wallet, asset, free: freeDelta, locked: lockedDelta })
    .onConflictDoUpdate({
      target: [paperBalances.userId, paperBalances.wallet, paperBalances.asset],
      set: {
        free: sql`${paperBalances.free} + ${freeDelta}::numeric`,
        locked: sql`${paperBalances.locked} + ${lockedDelta}::numeric`,
      },
    })
    .returning({ free: paperBalances.free, locked: paperBalances.locked });
  if (!row) throw new Error('balance upsert returned no row');
  return row;
}

async function applyInTx(tx: Tx, change: PaperChange): Promise<void> {
  const { userId, order, position } = change;
  if (order?.op === 'insert') {
    const inserted = await tx
      .insert(paperOrders)
      .values(toOrderRecord(order.row))
      .onConflictDoNothing()
      .returning({ id: paperOrders.clientOrderId });
    if (inserted.length === 0) {
      const existing = await findOrder(tx, userId, order.row.clientOrderId);
      if (!existing) throw new Error('order conflict without a stored order');
      throw new Rollback({ ok: false, reason: 'duplicate_order', existing });
    }
  } else if (order?.op === 'update') {
    const updated = await tx
      .update(paperOrders)
      .set(toOrderRecord(order.row))
      .where(
        and(
          eq(paperOrders.userId, userId),
          eq(paperOrders.clientOrderId, order.row.clientOrderId),
          eq(paperOrders.status, order.expectStatus),
        ),
      )
      .returning({ id: paperOrders.clientOrderId });
    if (updated.length === 0) throw new Rollback({ ok: false, reason: 'conflict' });
  }

  if (position) await writePosition(tx, userId, position);
  if (change.once && (await anyLedgerRowOf(tx, userId, change.moves))) {
    throw new Rollback({ ok: false, reason: 'already_applied' });
  }

  for (const move of change.moves) {
    const after = await addToBalance(tx, userId, move.wallet, move.asset, move.freeDelta, move.lockedDelta);
    if (money(after.free).isNegative() || money(after.locked).isNegative()) {
      throw new Rollback({
        ok: false,
        reason: 'insufficient_balance',
        wallet: move.wallet,
        asset: move.asset,
      });
    }
    const amount = money(move.freeDelta).plus(move.lockedDelta);
    if (amount.isZero() && !move.always) continue;
    await tx.insert(paperLedger).values({
      userId,
      wallet: move.wallet,
      asset: move.asset,
      amount: amount.toFixed(),
      kind: move.kind,
      refId: move.refId,
      tsMs: change.tsMs,
    });
  }
}

/** Whether the user's ledger holds a row of the kind and refId of any of `moves`. */
async function anyLedgerRowOf(tx: Tx, userId: string, moves: PaperChange['moves']): Promise<boolean> {
  for (const move of moves) {
    const [row] = await tx
      .select({ id: paperLedger.id })
      .from(paperLedger)
      .where(
        and(
          eq(paperLedger.userId, userId),
          eq(paperLedger.kind, move.kind),
          eq(paperLedger.refId, move.refId),
        ),
      )
      .limit(1);
    if (row) return true;
  }
  return false;
}

async function writePosition(tx: Tx, userId: string, write: NonNullable<PaperChange['position']>) {
  const where = and(eq(paperPositions.userId, userId), eq(paperPositions.symbol, write.symbol));
  if (write.expectVersion === null) {
    if (!write.next) {
      const [existing] = await tx.select({ v: paperPositions.version }).from(paperPositions).where(where);
      if (existing) throw new Rollback({ ok: false, reason: 'conflict' });
      return;
    }
    const inserted = await tx
      .insert(paperPositions)
      .values({ ...write.next, userId, symbol: write.symbol, version: 1 })
      .onConflictDoNothing()
      .returning({ v: paperPositions.version });
    if (inserted.length === 0) throw new Rollback({ ok: false, reason: 'conflict' });
    return;
  }
  const versioned = and(where, eq(paperPositions.version, write.expectVersion));
  const done = write.next
    ? await tx
        .update(paperPositions)
        .set({ ...write.next, userId, symbol: write.symbol, version: write.expectVersion + 1 })
        .where(versioned)
        .returning({ v: paperPositions.version })
    : await tx.delete(paperPositions).where(versioned).returning({ v: paperPositions.version });
  if (done.length === 0) throw new Rollback({ ok: false, reason: 'conflict' });
}
