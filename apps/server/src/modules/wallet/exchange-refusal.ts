import { isExchangeError } from '@gridbot/exchange';
import { walletMessages as m } from '@gridbot/shared';
import { HttpError } from '../../lib/http-error';

/** An exchange refusal becomes a 400 with its own words; anything else stays an error for the log. */
export function asUserError(error: unknown, fallback: string): unknown {
  if (!isExchangeError(error)) return error;
  if (error.kind === 'fatal') return new HttpError(400, m.invalidKeys);
  if (error.kind === 'retryable' || error.kind === 'unknown')
    return new HttpError(503, `${fallback}: the exchange did not answer. Please try again.`);
  return new HttpError(400, `${fallback}: ${error.userMessage}`);
}
