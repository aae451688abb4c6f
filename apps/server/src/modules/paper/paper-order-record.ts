import { paperOrders } from '@gridbot/db';
import type { PaperOrderRow } from '@gridbot/exchange';

type OrderRecord = typeof paperOrders.$inferSelect;
export type OrderColumns = Record<string, unknown> & { user_id: string; client_order_id: string };

/** A paper order as a `paper_orders` row (drizzle's field names). */
export function toOrderRecord(row: PaperOrderRow): OrderRecord {
  return {
    userId: row.userId,
    clientOrderId: row.clientOrderId,
    exchangeOrderId: row.exchangeOrderId,
    market: row.market,
    symbol: row.symbol,
    side: row.side,
    type: row.type,
    status: row.status,
    price: row.price ?? null,
    quantity: row.quantity,
    filledQuantity: row.filledQuantity,
    filledQuote: row.filledQuote,
    averagePrice: row.averagePrice ?? null,
    fee: row.fee,
    feeAsset: row.feeAsset,
    leverage: row.leverage ?? null,
    reduceOnly: row.reduceOnly,
    reservedAsset: row.reservedAsset ?? null,
    reserved: row.reserved,
    createdMs: row.createdMs,
    updatedMs: row.updatedMs,
  };
}

/** The same row keyed by SQL column names, for statements that read rows from JSON (the batched writes). */
export function toOrderColumns(row: PaperOrderRow): OrderColumns {
  const columns = Object.fromEntries(
    Object.entries(toOrderRecord(row)).map(([field, value]) => [
      paperOrders[field as keyof OrderRecord].name,
      value,
    ]),
  );
  return columns as OrderColumns;
}
