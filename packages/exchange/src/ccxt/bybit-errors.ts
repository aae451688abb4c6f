/**
 * Bybit's V5 `retCode`s mapped to the port's errors, which carry Binance-like codes so that the server maps
 * one set of codes to user messages (exchange-error.ts). Codes and words: bybit-exchange/docs v5 error.mdx
 * "Error Code" (and its spot 170xxx table, as ccxt's bybit exception map lists them).
 */
import { ErrorCode, ExchangeError, exchangeErrors, isExchangeError } from '../exchange-error';
import { BybitApiError } from './bybit-clients';
import { fromCcxtClass } from './ccxt-errors';

/** Hedge mode refuses one-way orders ("position idx not match position mode"); the platform trades one-way longs. */
export const BYBIT_HEDGE_MODE_MESSAGE =
  'Your Bybit USDT perpetual position mode is Hedge Mode. Switch the symbol to One-Way Mode in Bybit (Derivatives → Preferences → Position Mode) and close its positions and orders first, to run futures bots.';

/** A Unified Trading Account has one wallet for spot and derivatives: not the two wallets the platform moves USDT between. */
export const BYBIT_UNIFIED_ACCOUNT_MESSAGE =
  'This Bybit API key belongs to a Unified Trading Account. The platform trades on classic Bybit accounts (separate Spot and Derivatives wallets) only.';

/** Bybit's "OrderLinkedID is duplicate" (linear 110072) and "Duplicate clientOrderId" (spot 170141). */
export const DUPLICATE_LINK_ID_CODES: ReadonlySet<number> = new Set([110072, 170141]);
/** "Order does not exist": linear 110001, spot 170213. */
export const NO_SUCH_ORDER_CODES: ReadonlySet<number> = new Set([110001, 170213]);

/** Our error for a Bybit `retCode` and `retMsg`. */
export function fromBybitCode(code: number, msg: string, cause: unknown): ExchangeError {
  switch (code) {
    case 10001:
      // 10001 "Request parameter error." also answers an order whose positionIdx does not fit the
      // position mode, in Bybit's words "position idx not match position mode".
      if (/position idx/i.test(msg))
        return new ExchangeError('rejected', ErrorCode.positionSideMismatch, BYBIT_HEDGE_MODE_MESSAGE, {
          cause,
          reason: 'position_mode',
        });
      return exchangeErrors.invalidParameter(msg, cause);
    case 10002: // "The request time exceeds the time window range."
      return exchangeErrors.timestamp(msg, cause);
    case 10003: // "API key is invalid."
    case 10005: // "Permission denied, please check your API key permissions."
    case 10010: // "Unmatched IP, please check your API key's bound IP addresses."
      return exchangeErrors.invalidKey(cause);
    case 10004: // "Error sign, please check your signature generation algorithm."
      return new ExchangeError('fatal', ErrorCode.invalidSignature, msg, { cause });
    case 10006: // "Too many visits. Exceeded the API Rate Limit."
    case 10018: // "Exceeded the IP Rate Limit."
      return exchangeErrors.rateLimited(cause);
    case 10000: // server timeout
    case 10016: // "Internal System Error."
      return new ExchangeError('retryable', ErrorCode.unknown, msg, { cause });
    case 170131: // spot "Insufficient balance."
    case 131212: // transfer "Insufficient balance"
      return exchangeErrors.insufficientBalance(cause);
    case 110004: // "Insufficient wallet balance"
    case 110006: // "cannot afford estimated position_margin"
    case 110007: // "Insufficient available balance"
    case 110012: // "Insufficient available balance."
    case 110044: // "Insufficient available margin"
    case 110045: // "Insufficient wallet balance"
      return exchangeErrors.marginInsufficient(cause);
    case 110017: // "ReduceOnly rule not satisified."
      return exchangeErrors.reduceOnly(cause);
    case 110001:
    case 170213:
      return exchangeErrors.noSuchOrder(cause);
    case 110094: // "Order does not meet minimum order value"
    case 170140: // "Transaction amount lower than the minimum."
      return exchangeErrors.filter('NOTIONAL', cause);
    case 170136: // "Order quantity lower than the minimum."
    case 170137: // "Order volume decimal too long"
      return exchangeErrors.filter('LOT_SIZE', cause);
    case 170134: // "Order price decimal too long."
      return exchangeErrors.filter('PRICE_FILTER', cause);
    default:
      if (DUPLICATE_LINK_ID_CODES.has(code))
        return new ExchangeError('rejected', ErrorCode.newOrderRejected, 'Duplicate order sent.', { cause });
      return new ExchangeError('rejected', code, msg, { cause });
  }
}

/** Maps anything a ccxt bybit call threw to an `ExchangeError`; ccxt errors never leave `ccxt/`. */
export function toBybitError(error: unknown): ExchangeError {
  if (isExchangeError(error)) return error;
  if (error instanceof BybitApiError) return fromBybitCode(error.retCode, error.retMsg, error);
  return fromCcxtClass(error, 'Bybit');
}

/** Bybit's own code behind one of our errors, when Bybit answered. */
export function bybitCodeOf(error: ExchangeError): number | undefined {
  return error.cause instanceof BybitApiError ? error.cause.retCode : undefined;
}
