import { expect } from 'vitest';

interface ClientOrderIds {
  clientOrderId: string;
}

/**
 * After crashes or failover: no intent left open, no client order id used twice, the
 * venue's filled orders are exactly the bots' fills, and every venue order was an intent first.
 */
export function expectOrdersMatchIntents(
  intents: readonly (ClientOrderIds & { status: string })[],
  fills: readonly ClientOrderIds[],
  orders: readonly (ClientOrderIds & { status: string })[],
) {
  expect(intents.filter((i) => i.status === 'pending' || i.status === 'unknown')).toEqual([]);
  const orderIds = orders.map((o) => o.clientOrderId);
  expect(new Set(orderIds).size).toBe(orderIds.length);
  const filled = orders
    .filter((o) => o.status === 'FILLED')
    .map((o) => o.clientOrderId)
    .sort();
  expect(fills.map((f) => f.clientOrderId).sort()).toEqual(filled);
  const intentIds = new Set(intents.map((i) => i.clientOrderId));
  expect(orderIds.every((id) => intentIds.has(id))).toBe(true);
}
