/**
 * OKX's API v5 codes mapped to the port's errors, which carry Binance-like codes so that the server maps one
 * set of codes to user messages (exchange-error.ts). Codes and words: www.okx.com/docs-v5/en "Error Code"
 * (REST API: 50xxx public, 51xxx trade, 59xxx account).
 */
import { ErrorCode, ExchangeError, exchangeErrors, isExchangeError } from '../exchange-error';
import { fromCcxtClass } from './ccxt-errors';
import { OkxApiError } from './okx-clients';

/** Long/short mode wants a posSide on every swap order; the platform trades one-way (net) longs. */
export const OKX_HEDGE_MODE_MESSAGE =
  'Your OKX account is in Long/short position mode. Switch it to Net mode in OKX (Settings → Position mode) and close its swap positions and orders first, to run futures bots.';

/** 51016 "Duplicated clOrdId". */
export const DUPLICATE_CL_ORD_ID = 51016;
/** [order-details] 51603 "Order does not exist". */
export const NO_SUCH_ORDER = 51603;
/** [cancel-order] 51400 "…filled, canceled or does not exist", 51401 already canceled, 51402 already completed. */
export const CANCEL_REFUSED_CODES: ReadonlySet<number> = new Set([51400, 51401, 51402]);

/** Our error for an OKX code and message. */
export function fromOkxCode(code: number, msg: string, cause: unknown): ExchangeError {
  switch (code) {
    case 51000: // "Parameter {param0} error"
      // In long/short mode an order without posSide is "Parameter posSide error".
      if (/posSide/i.test(msg))
        return new ExchangeError('rejected', ErrorCode.positionSideMismatch, OKX_HEDGE_MODE_MESSAGE, {
          cause,
          reason: 'position_mode',
        });
      if (/\bpx\b/.test(msg)) return exchangeErrors.filter('PRICE_FILTER', cause);
      return exchangeErrors.invalidParameter(msg, cause);
    case 51001: // "Instrument ID does not exist"
      return exchangeErrors.invalidSymbol(cause);
    case 50102: // "Timestamp request expired"
    case 50036: // "The expTime can't be earlier than the current system time." (not processed)
    case 50037: // "Order expired." (reached the engine after its expTime: not placed)
      return exchangeErrors.timestamp(msg, cause);
    case 50111: // "Invalid OK-ACCESS-KEY"
    case 50103: // "Request header OK-ACCESS-KEY can not be empty"
    case 50104: // "Request header OK-ACCESS-PASSPHRASE can not be empty"
    case 50105: // "Invalid OK-ACCESS-PASSPHRASE"
    case 50110: // "Your IP … is not included in your API key's IP whitelist"
    case 50120: // "Your API key doesn't have permission to use this endpoint"
      return exchangeErrors.invalidKey(cause);
    case 50113: // "Invalid Sign"
      return new ExchangeError('fatal', ErrorCode.invalidSignature, msg, { cause });
    case 50011: // "Rate limit reached."
    case 50061: // "Sub-account rate limit reached"
      return exchangeErrors.rateLimited(cause);
    case 50001: // "Service temporarily unavailable"
    case 50004: // "API endpoint request timeout (does not mean that the request was successful or failed…)"
    case 50013: // "Systems are busy. Please try again later."
    case 50026: // "System error. Try again later."
    case 51054: // "Request timed out. Please try again later."
    case 51149: // "Order timed out. Please try again later."
      return new ExchangeError('retryable', ErrorCode.unknown, msg, { cause });
    case 51008: // "Order failed. Insufficient {param0} balance in account" (margin too, on swaps)
    case 51119: // "Order failed. Insufficient balance."
    case 51127: // "Available balance is 0"
    case 51131: // "Insufficient balance"
      return /margin/i.test(msg)
        ? exchangeErrors.marginInsufficient(cause)
        : exchangeErrors.insufficientBalance(cause);
    case 51169: // "…you don't have any positions in this direction for this contract to reduce or close."
    case 51148: // "…The new order may execute an opposite trading direction of your existing reduce-only positions…"
    case 51170: // "…A reduce-only order can’t be the same trading direction as your existing positions."
    case 51205: // "Reduce Only is not available"
      return exchangeErrors.reduceOnly(cause);
    case 51603:
      return exchangeErrors.noSuchOrder(cause);
    case 51400:
    case 51401:
    case 51402:
      return exchangeErrors.unknownOrder(cause);
    case 51020: // "Your order should meet or exceed the minimum order amount."
    case 51121: // "Order quantity must be a multiple of the lot size."
    case 51007: // "Order failed. Please place orders of at least 1 contract or more."
      return exchangeErrors.filter('LOT_SIZE', cause);
    case 59102: // "Leverage exceeds the maximum limit for this instrument."
      return exchangeErrors.invalidLeverage(cause);
    case DUPLICATE_CL_ORD_ID:
      return new ExchangeError('rejected', ErrorCode.newOrderRejected, 'Duplicate order sent.', { cause });
    default:
      return new ExchangeError('rejected', code, msg, { cause });
  }
}

/** Maps anything a ccxt okx call threw to an `ExchangeError`; ccxt errors never leave `ccxt/`. */
export function toOkxError(error: unknown): ExchangeError {
  if (isExchangeError(error)) return error;
  if (error instanceof OkxApiError) return fromOkxCode(error.code, error.msg, error);
  return fromCcxtClass(error, 'OKX');
}

/** OKX's own code behind one of our errors, when OKX answered. */
export function okxCodeOf(error: ExchangeError): number | undefined {
  let cause: unknown = error.cause;
  while (cause instanceof ExchangeError) cause = cause.cause;
  return cause instanceof OkxApiError ? cause.code : undefined;
}
