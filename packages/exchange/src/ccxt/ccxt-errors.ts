import {
  AuthenticationError,
  DDoSProtection,
  InvalidNonce,
  NetworkError,
  PermissionDenied,
  RateLimitExceeded,
} from 'ccxt';
import { ErrorCode, ExchangeError, exchangeErrors, isExchangeError } from '../exchange-error';
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

/** Our error for a Binance code and message (docs/trading-rules.md §3, docs/contributing.md §4). */
export function fromBinanceCode(code: number, msg: string, cause: unknown): ExchangeError {
  switch (code) {
    case ErrorCode.newOrderRejected:
      return /insufficient balance/i.test(msg)
        ? exchangeErrors.insufficientBalance(cause)
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
    default:
      return new ExchangeError('rejected', code, msg, { cause });
  }
}

/** Maps anything a ccxt call threw to an `ExchangeError`; ccxt errors never leave `ccxt/`. */
export function toExchangeError(error: unknown): ExchangeError {
  if (isExchangeError(error)) return error;
  if (error instanceof BinanceApiError) return fromBinanceCode(error.code, error.msg, error);
  const message = error instanceof Error ? error.message : String(error);
  const body = binanceErrorBody(message);
  if (body) return fromBinanceCode(body.code, body.msg, error);
  if (error instanceof RateLimitExceeded || error instanceof DDoSProtection)
    return exchangeErrors.rateLimited(error);
  if (error instanceof InvalidNonce) return exchangeErrors.timestamp(undefined, error);
  if (error instanceof AuthenticationError || error instanceof PermissionDenied)
    return exchangeErrors.invalidKey(error);
  if (error instanceof NetworkError)
    return exchangeErrors.noAnswer('No answer from Binance; try again later.', error);
  return new ExchangeError('fatal', ErrorCode.unknown, 'Unexpected error from Binance.', { cause: error });
}
