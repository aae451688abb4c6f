import { type ExchangeError, exchangeErrors } from '../exchange-error';

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
