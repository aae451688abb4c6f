import {
  AuthenticationError,
  DDoSProtection,
  InvalidNonce,
  NetworkError,
  PermissionDenied,
  RateLimitExceeded,
} from 'ccxt';
import {
  ErrorCode,
  ExchangeError,
  type ExchangeErrorReason,
  exchangeErrors,
  isExchangeError,
} from '../exchange-error';
import { BinanceApiError } from './binance-clients';

/** Binance's `{"code":-2010,"msg":"…"}` inside a ccxt error message, if any. */
export function binanceErrorBody(message: string): { code: number; msg: string } | undefined {
  const match = /\{\s*"code"\s*:\s*-?\d+\s*,\s*"msg"\s*:\s*"(?:[^"\\]|\\.)*"\s*\}/.exec(message);
  if (!match) return undefined;
  try {
    const parsed = JSON.parse(match[0]) as { code: number; msg: string };
    return { code: Number(parsed.code), msg: String(parsed.msg) };
  } catch {
    return undefined;
  }
}

/**
 * The refusals the runtime answers by itself, from Binance's code and message:
 * - -4061 "Order's position side does not match user's setting." (USDⓈ-M Futures error codes, 40xx): the
 *   account is in hedge mode;
 * - -2022 "ReduceOnly Order is rejected." (USDⓈ-M Futures error codes, 20xx): nothing left to reduce;
 * - -1013 with "Filter failure: NOTIONAL" / "MIN_NOTIONAL" / "LOT_SIZE" (binance-spot-api-docs errors.md and
 *   filters.md: an order that breaks the symbol filter named in the message): the size is below the
 *   symbol's minimum. PRICE_FILTER and the other filters are plain refusals;
 * - -2010 "Order would immediately match and take." (spot errors.md: a LIMIT_MAKER that would trade as a
 *   taker) and USDⓈ-M -5022 (a GTX post-only order that could not rest as a maker): nothing was placed.
 */
export function binanceReason(code: number, msg: string): ExchangeErrorReason | undefined {
  if (code === ErrorCode.postOnlyRejected) return 'would_take';
  if (code === ErrorCode.newOrderRejected && /immediately match and take/i.test(msg)) return 'would_take';
  if (code === ErrorCode.positionSideMismatch) return 'position_mode';
  if (code === ErrorCode.reduceOnlyRejected) return 'reduce_only_rejected';
  if (code === ErrorCode.filterFailure && /NOTIONAL|LOT_SIZE/.test(msg)) return 'below_minimum';
  return undefined;
}

/** Hedge mode refuses orders without a position side; the platform trades one-way longs only. */
export const HEDGE_MODE_MESSAGE =
  'Your Binance futures account is in Hedge Mode. Switch it to One-way Mode in Binance (Preferences → Position Mode) to run futures bots.';

/** Our error for a Binance code and message (docs/trading-rules.md §3, docs/contributing.md §4). */
export function fromBinanceCode(code: number, msg: string, cause: unknown): ExchangeError {
  switch (code) {
    case ErrorCode.positionSideMismatch:
      // The user's words for it, as the look-up before an opening gives them.
      return new ExchangeError('rejected', code, HEDGE_MODE_MESSAGE, { cause, reason: 'position_mode' });
    case ErrorCode.newOrderRejected:
      if (/insufficient balance/i.test(msg)) return exchangeErrors.insufficientBalance(cause);
      return binanceReason(code, msg) === 'would_take'
        ? new ExchangeError('rejected', code, msg, { cause, reason: 'would_take' })
        : new ExchangeError('rejected', code, msg, { cause });
    case ErrorCode.marginInsufficient:
      return exchangeErrors.marginInsufficient(cause);
    case ErrorCode.rejectedMbxKey:
    case ErrorCode.badApiKeyFormat:
    case ErrorCode.invalidSignature:
      return new ExchangeError('fatal', code, msg, { cause });
    case ErrorCode.timestamp:
      return exchangeErrors.timestamp(msg, cause);
    case ErrorCode.tooManyRequests:
      return new ExchangeError('retryable', code, msg, { cause });
    case ErrorCode.unknown:
    case ErrorCode.disconnected:
    case ErrorCode.timeout:
      return new ExchangeError('retryable', code, msg, { cause });
    default: {
      const reason = binanceReason(code, msg);
      return new ExchangeError('rejected', code, msg, { cause, ...(reason ? { reason } : {}) });
    }
  }
}

/** Maps anything a ccxt call threw to an `ExchangeError`; ccxt errors never leave `ccxt/`. */
export function toExchangeError(error: unknown): ExchangeError {
  if (isExchangeError(error)) return error;
  if (error instanceof BinanceApiError) return fromBinanceCode(error.code, error.msg, error);
  const message = error instanceof Error ? error.message : String(error);
  const body = binanceErrorBody(message);
  if (body) return fromBinanceCode(body.code, body.msg, error);
  return fromCcxtClass(error, 'Binance');
}

/**
 * Our error for what ccxt threw when the venue's own code is not at hand (no answer, a body ccxt could not
 * read, its own checks), from ccxt's error class alone; the same for every venue.
 */
export function fromCcxtClass(error: unknown, venue: string): ExchangeError {
  if (error instanceof RateLimitExceeded || error instanceof DDoSProtection)
    return exchangeErrors.rateLimited(error);
  if (error instanceof InvalidNonce) return exchangeErrors.timestamp(undefined, error);
  if (error instanceof AuthenticationError || error instanceof PermissionDenied)
    return exchangeErrors.invalidKey(error);
  if (error instanceof NetworkError)
    return exchangeErrors.noAnswer(`No answer from ${venue}; try again later.`, error);
  return new ExchangeError('fatal', ErrorCode.unknown, `Unexpected error from ${venue}.`, { cause: error });
}
