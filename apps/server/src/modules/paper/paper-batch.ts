import { type Db, paperBalances, paperLedger, paperOrders } from '@gridbot/db';
import type { PaperChange } from '@gridbot/exchange';
import { money } from '@gridbot/shared';
import { sql } from 'drizzle-orm';
import { type OrderColumns, toOrderColumns } from './paper-order-record';

/**
 * Many users' paper changes in one transaction of four statements, however many orders a tick brings
 * (the per-order path costs a transaction of five to eight statements each). Only changes without a
 * position write qualify (spot orders, order updates); the caller routes the others alone.
 *
 * All or nothing: when any change would fail on its own (an order id already used, an order no longer
 * in the expected status, a balance going below zero), the whole batch rolls back and answers false, and
 * the caller applies each change alone to give every caller its own answer.
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

  try {
    await db.transaction(async (tx) => {
      if (inserts.length > 0) {
        const inserted = rowsOf(
          await tx.execute(sql`
            insert into ${paperOrders} (${ORDER_COLUMNS})
            select ${ORDER_COLUMNS} from jsonb_to_recordset(${JSON.stringify(inserts)}::jsonb)
              as x(${ORDER_TYPES})
            on conflict do nothing
            returning client_order_id`),
        );
        if (inserted.length !== inserts.length) throw ROLLBACK;
      }
      if (updates.length > 0) {
        const updated = rowsOf(
          await tx.execute(sql`
            update ${paperOrders} as p set
              status = x.status, price = x.price, quantity = x.quantity,
              filled_quantity = x.filled_quantity, filled_quote = x.filled_quote,
              average_price = x.average_price, fee = x.fee, fee_asset = x.fee_asset,
              leverage = x.leverage, reserved_asset = x.reserved_asset, reserved = x.reserved,
              updated_ms = x.updated_ms
            from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb)
              as x(${ORDER_TYPES}, expect_status text)
            where p.user_id = x.user_id and p.client_order_id = x.client_order_id
              and p.status = x.expect_status
            returning p.client_order_id`),
        );
        if (updated.length !== updates.length) throw ROLLBACK;
      }
      if (balances.length > 0) {
        const negative = rowsOf(
          await tx.execute(sql`
            insert into ${paperBalances} (user_id, wallet, asset, free, locked)
            select user_id, wallet, asset, free, locked
            from jsonb_to_recordset(${JSON.stringify(balances)}::jsonb)
              as x(user_id text, wallet text, asset text, free numeric, locked numeric)
            on conflict (user_id, wallet, asset) do update set
              free = ${paperBalances}.free + excluded.free,
              locked = ${paperBalances}.locked + excluded.locked
            returning case when free < 0 or locked < 0 then 1 end as negative`),
        ).filter((row) => row.negative !== null);
        if (negative.length > 0) throw ROLLBACK;
      }
      if (ledger.length > 0) {
        await tx.execute(sql`
          insert into ${paperLedger} (user_id, wallet, asset, amount, kind, ref_id, ts_ms)
          select user_id, wallet, asset, amount, kind, ref_id, ts_ms
          from rows from (jsonb_to_recordset(${JSON.stringify(ledger)}::jsonb)
            as (user_id text, wallet text, asset text, amount numeric, kind text, ref_id text, ts_ms bigint))
            with ordinality as x(user_id, wallet, asset, amount, kind, ref_id, ts_ms, n)
          order by n`);
      }
    });
    return true;
  } catch (error) {
    if (error === ROLLBACK) return false;
    throw error;
  }
}

type Dec = ReturnType<typeof money>;

/** Thrown inside the transaction to roll the batch back (not an error: some change must go alone). */
const ROLLBACK = new Error('paper batch: a change must be applied alone');

const ORDER_COLUMNS = sql.raw(
  'user_id, client_order_id, exchange_order_id, market, symbol, side, type, status, price, quantity, ' +
    'filled_quantity, filled_quote, average_price, fee, fee_asset, leverage, reserved_asset, reserved, ' +
    'created_ms, updated_ms',
);
const ORDER_TYPES = sql.raw(
  'user_id text, client_order_id text, exchange_order_id text, market text, symbol text, side text, ' +
    'type text, status text, price numeric, quantity numeric, filled_quantity numeric, filled_quote numeric, ' +
    'average_price numeric, fee numeric, fee_asset text, leverage integer, reserved_asset text, ' +
    'reserved numeric, created_ms bigint, updated_ms bigint',
);

function byOrderKey(a: { user_id: string; client_order_id: string }, b: typeof a): number {
  const x = `${a.user_id}\u0000${a.client_order_id}`;
  const y = `${b.user_id}\u0000${b.client_order_id}`;
  return x < y ? -1 : x > y ? 1 : 0;
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}
