import { type Db, paperBalances, paperLedger, paperOrders } from '@gridbot/db';
import type { PaperChange } from '@gridbot/exchange';
import { money } from '@gridbot/shared';
import { sql } from 'drizzle-orm';
import { type OrderColumns, toOrderColumns } from './paper-order-record';

/**
 * Many users' paper changes in one statement, however many orders a tick brings (the per-order path costs
 * a transaction of five to eight statements each). Only changes without a position write qualify (spot
 * orders, order updates); the caller routes the others alone.
 *
 * All or nothing: when any change would fail on its own (an order id already used, an order no longer in
 * the expected status, a balance going below zero), nothing of the batch is written and it answers false;
 * the caller then applies each change alone to give every caller its own answer.
 */
export async function applyBatch(db: Db, changes: readonly PaperChange[]): Promise<boolean> {
  const inserts: OrderColumns[] = [];
  const updates: (OrderColumns & { expect_status: string })[] = [];
  const deltas = new Map<
    string,
    { user_id: string; wallet: string; asset: string; free: Dec; locked: Dec }
  >();
  const ledger: Record<string, unknown>[] = [];
  for (const change of changes) {
    const { order } = change;
    if (order?.op === 'insert') inserts.push(toOrderColumns(order.row));
    if (order?.op === 'update')
      updates.push({ ...toOrderColumns(order.row), expect_status: order.expectStatus });
    for (const move of change.moves) {
      // One row per balance: an upsert may not touch the same row twice in one statement.
      const key = `${change.userId}\u0000${move.wallet}\u0000${move.asset}`;
      const sum = deltas.get(key) ?? {
        user_id: change.userId,
        wallet: move.wallet,
        asset: move.asset,
        free: money(0),
        locked: money(0),
      };
      sum.free = sum.free.plus(move.freeDelta);
      sum.locked = sum.locked.plus(move.lockedDelta);
      deltas.set(key, sum);
      const amount = money(move.freeDelta).plus(move.lockedDelta);
      if (amount.isZero() && !move.always) continue;
      ledger.push({
        user_id: change.userId,
        wallet: move.wallet,
        asset: move.asset,
        amount: amount.toFixed(),
        kind: move.kind,
        ref_id: move.refId,
        ts_ms: change.tsMs,
      });
    }
  }
  // Rows are locked in key order, so two batches (two worker processes) cannot deadlock on each other.
  const balances = [...deltas.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, d]) => ({ ...d, free: d.free.toFixed(), locked: d.locked.toFixed() }));
  inserts.sort(byOrderKey);
  updates.sort(byOrderKey);

  // One statement: its parts commit together or not at all, in one round trip. Each part answers a row per
  // row written; the final select counts them and calls paper_batch_abort() (migration 0012), which raises
  // and so undoes every part, when an insert met a used order id, an update found an order in another
  // status, or a balance went below zero.
  const parts = [];
  const checks = [];
  if (inserts.length > 0) {
    parts.push(sql`inserted as (
      insert into ${paperOrders} (${ORDER_COLUMNS})
      select ${ORDER_COLUMNS} from json_to_recordset(${JSON.stringify(inserts)}::json) as x(${ORDER_TYPES})
      on conflict do nothing
      returning 1)`);
    checks.push(sql`(select count(*) from inserted) <> ${inserts.length}`);
  }
  if (updates.length > 0) {
    parts.push(sql`updated as (
      update ${paperOrders} as p set
        status = x.status, price = x.price, quantity = x.quantity,
        filled_quantity = x.filled_quantity, filled_quote = x.filled_quote,
        average_price = x.average_price, fee = x.fee, fee_asset = x.fee_asset,
        leverage = x.leverage, reserved_asset = x.reserved_asset, reserved = x.reserved,
        updated_ms = x.updated_ms
      from json_to_recordset(${JSON.stringify(updates)}::json) as x(${ORDER_TYPES}, expect_status text)
      where p.user_id = x.user_id and p.client_order_id = x.client_order_id and p.status = x.expect_status
      returning 1)`);
    checks.push(sql`(select count(*) from updated) <> ${updates.length}`);
  }
  if (balances.length > 0) {
    parts.push(sql`balances as (
      insert into ${paperBalances} (user_id, wallet, asset, free, locked)
      select user_id, wallet, asset, free, locked
      from json_to_recordset(${JSON.stringify(balances)}::json)
        as x(user_id text, wallet text, asset text, free numeric, locked numeric)
      on conflict (user_id, wallet, asset) do update set
        free = ${paperBalances}.free + excluded.free,
        locked = ${paperBalances}.locked + excluded.locked
      returning free < 0 or locked < 0 as negative)`);
    checks.push(sql`exists (select 1 from balances where negative)`);
  }
  if (ledger.length > 0) {
    parts.push(sql`ledger as (
      insert into ${paperLedger} (user_id, wallet, asset, amount, kind, ref_id, ts_ms)
      select user_id, wallet, asset, amount, kind, ref_id, ts_ms
      from rows from (json_to_recordset(${JSON.stringify(ledger)}::json)
        as (user_id text, wallet text, asset text, amount numeric, kind text, ref_id text, ts_ms bigint))
        with ordinality as x(user_id, wallet, asset, amount, kind, ref_id, ts_ms, n)
      order by n
      returning 1)`);
  }
  if (parts.length === 0) return true;
  const failed = checks.length > 0 ? sql.join(checks, sql` or `) : sql`false`;
  try {
    // Every part runs to completion even when nothing reads it (PostgreSQL's rule for data-modifying WITH).
    await db.execute(sql`with ${sql.join(parts, sql`, `)}
      select case when ${failed} then paper_batch_abort() else 0 end as aborted`);
    return true;
  } catch (error) {
    if (isBatchAbort(error)) return false;
    throw error;
  }
}

/** The error paper_batch_abort() raises (SQLSTATE P0001 with its message). */
function isBatchAbort(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: string }).code === 'P0001' && e.message.includes('paper batch')) return true;
  return false;
}

type Dec = ReturnType<typeof money>;

const ORDER_COLUMNS = sql.raw(
  'user_id, client_order_id, exchange_order_id, market, symbol, side, type, status, price, quantity, ' +
    'filled_quantity, filled_quote, average_price, fee, fee_asset, leverage, reduce_only, reserved_asset, ' +
    'reserved, created_ms, updated_ms',
);
const ORDER_TYPES = sql.raw(
  'user_id text, client_order_id text, exchange_order_id text, market text, symbol text, side text, ' +
    'type text, status text, price numeric, quantity numeric, filled_quantity numeric, filled_quote numeric, ' +
    'average_price numeric, fee numeric, fee_asset text, leverage integer, reduce_only boolean, ' +
    'reserved_asset text, reserved numeric, created_ms bigint, updated_ms bigint',
);

function byOrderKey(a: { user_id: string; client_order_id: string }, b: typeof a): number {
  const x = `${a.user_id}\u0000${a.client_order_id}`;
  const y = `${b.user_id}\u0000${b.client_order_id}`;
  return x < y ? -1 : x > y ? 1 : 0;
}
