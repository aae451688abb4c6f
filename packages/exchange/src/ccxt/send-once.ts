import { ErrorCode, ExchangeError, exchangeErrors } from '../exchange-error';
import type { FetchOrderResult, Order } from '../exchange-port';

/**
 * An order POST, sent once (docs/trading-rules.md §3): never retried here; a refusal keeps its kind, and
 * anything else (no answer, a 5xx, a rate limit) is `unknown`, for the caller to look the order up.
 */
export async function sendOnce(
  send: () => Promise<unknown>,
  toError: (error: unknown) => ExchangeError,
): Promise<void> {
  try {
    await send();
  } catch (error) {
    const mapped = toError(error);
    if (mapped.kind === 'rejected' || mapped.kind === 'fatal') throw mapped;
    throw exchangeErrors.outcomeUnknown(mapped);
  }
}

/**
 * Places an order the exchange does not hold yet (a look-up said so) and returns it as the exchange then
 * holds it: sent once; a refusal for a client order id already used means the order exists, and the look-up
 * is the answer; once accepted, it is read back, and until it is its outcome is unknown to the caller, never
 * "not sent".
 */
export async function placeAndReadBack(order: {
  exchange: string;
  send: () => Promise<unknown>;
  toError: (error: unknown) => ExchangeError;
  isDuplicateId: (error: ExchangeError) => boolean;
  lookUp: () => Promise<FetchOrderResult>;
}): Promise<Order> {
  try {
    await sendOnce(order.send, order.toError);
  } catch (error) {
    const mapped = order.toError(error);
    if (!order.isDuplicateId(mapped)) throw mapped;
    const again = await order.lookUp();
    if (again.found) return again.order;
    throw mapped;
  }
  let placed: FetchOrderResult;
  try {
    placed = await order.lookUp();
  } catch (error) {
    throw exchangeErrors.outcomeUnknown(order.toError(error));
  }
  if (!placed.found)
    throw new ExchangeError(
      'unknown',
      ErrorCode.timeout,
      `${order.exchange} accepted the order; its state is not known yet.`,
    );
  return placed.order;
}
