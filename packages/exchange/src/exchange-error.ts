/**
 * Errors of the exchange port (docs/contributing.md §4). Codes and messages follow Binance's REST API, so the paper
 * exchange and the Binance adapter fail alike and the server maps one set of codes to user messages.
 */

/**
 * What the caller should do: back off and retry, record the order as failed, or stop the bot (docs/trading-rules.md §3).
 * `unknown` is an order request whose outcome is not known (timeout, connection reset, HTTP 5xx,
 * -1000/-1001/-1007): the order may have executed, so it is looked up by its client order id before
 * anything is sent again, never re-sent blind.
 */
export type ExchangeErrorKind = 'retryable' | 'rejected' | 'fatal' | 'unknown';

/**
 * Why a venue refused an order, for the refusals the runtime answers differently from a plain refusal
 * (docs/trading-rules.md §3), so that no venue's codes or wording leave this package:
 * - `position_mode`: the account's position mode (hedge) does not fit the one-way orders the platform sends;
 * - `reduce_only_rejected`: a reduce-only order that would not reduce the position (it may be gone);
 * - `below_minimum`: the order's size is below the symbol's minimum quantity or notional;
 * - `would_take`: a post-only limit order (spot LIMIT_MAKER, futures GTX) that would trade at once as a taker;
 *   nothing was placed and its client order id stays free.
 */
export type ExchangeErrorReason = 'position_mode' | 'reduce_only_rejected' | 'below_minimum' | 'would_take';

/** Binance error codes the port uses (negative numbers as Binance sends them). */
export const ErrorCode = {
  /** Unknown / network failure, no answer from the venue. */
  unknown: -1000,
  disconnected: -1001,
  tooManyRequests: -1003,
  timeout: -1007,
  /** Filter failure (PRICE_FILTER, LOT_SIZE, NOTIONAL…). */
  filterFailure: -1013,
  timestamp: -1021,
  invalidSignature: -1022,
  badSymbol: -1121,
  invalidParameter: -1102,
  /** Insufficient balance, duplicate order. */
  newOrderRejected: -2010,
  cancelRejected: -2011,
  noSuchOrder: -2013,
  badApiKeyFormat: -2014,
  rejectedMbxKey: -2015,
  /** Futures: margin is insufficient. */
  marginInsufficient: -2019,
  reduceOnlyRejected: -2022,
  invalidLeverage: -4028,
  /** Our own code for a symbol/asset the venue has no USDT market for. */
  invalidAsset: -1100,
  /** Futures: the order's position side does not match the account's position mode (hedge mode). */
  positionSideMismatch: -4061,
  /** Futures: a GTX (post-only) order that could not rest as a maker. */
  postOnlyRejected: -5022,
} as const;

/** Binance's own wording for the codes above, so a paper error reads like a real one. */
export const BinanceMessage = {
  insufficientBalance: 'Account has insufficient balance for requested action.',
  marginInsufficient: 'Margin is insufficient.',
  invalidKey: 'Invalid API-key, IP, or permissions for action.',
  timestamp: "Timestamp for this request was 1000ms ahead of the server's time.",
  noSuchOrder: 'Order does not exist.',
  unknownOrder: 'Unknown order sent.',
  tooManyRequests: 'Too many requests; current limit is exceeded.',
  duplicateOrder: 'Duplicate order sent.',
  invalidSymbol: 'Invalid symbol.',
  reduceOnly: 'ReduceOnly Order is rejected.',
  invalidLeverage: 'Leverage is not valid',
  /** [spot errors.md] -2010: a LIMIT_MAKER that would trade as a taker. */
  wouldTakeSpot: 'Order would immediately match and take.',
  /** USDⓈ-M Futures -5022 (derivatives change-log): a GTX order that would trade as a taker. */
  wouldTakeFutures:
    'Due to the order could not be executed as maker, the Post Only order will be rejected. The order will not be recorded in the order history',
  filter: (name: 'NOTIONAL' | 'LOT_SIZE' | 'PRICE_FILTER' | 'MIN_NOTIONAL') => `Filter failure: ${name}`,
} as const;

/** An exchange failure with a Binance-like code and message; never a ccxt or driver error. */
export class ExchangeError extends Error {
  override readonly name = 'ExchangeError';
  readonly kind: ExchangeErrorKind;
  readonly code: number;
  /** Text fit for a user: Binance's message as the venue wrote it. */
  readonly userMessage: string;
  /** Set by the adapter that built the error when the refusal is one the runtime acts on by itself. */
  readonly reason?: ExchangeErrorReason;

  constructor(
    kind: ExchangeErrorKind,
    code: number,
    userMessage: string,
    options?: { cause?: unknown; reason?: ExchangeErrorReason },
  ) {
    super(`${code} ${userMessage}`, options);
    this.kind = kind;
    this.code = code;
    this.userMessage = userMessage;
    if (options?.reason) this.reason = options.reason;
  }
}

/** True for our `ExchangeError` (not ccxt's class of the same name: it has no `kind`). */
export function isExchangeError(error: unknown): error is ExchangeError {
  return error instanceof ExchangeError;
}

/** Constructors for the errors both implementations raise, so they carry the same code and words. */
export const exchangeErrors = {
  insufficientBalance: (cause?: unknown) =>
    new ExchangeError('rejected', ErrorCode.newOrderRejected, BinanceMessage.insufficientBalance, { cause }),
  marginInsufficient: (cause?: unknown) =>
    new ExchangeError('rejected', ErrorCode.marginInsufficient, BinanceMessage.marginInsufficient, { cause }),
  filter: (name: 'NOTIONAL' | 'LOT_SIZE' | 'PRICE_FILTER', cause?: unknown) =>
    new ExchangeError('rejected', ErrorCode.filterFailure, BinanceMessage.filter(name), {
      cause,
      ...(name === 'PRICE_FILTER' ? {} : { reason: 'below_minimum' as const }),
    }),
  noSuchOrder: (cause?: unknown) =>
    new ExchangeError('rejected', ErrorCode.noSuchOrder, BinanceMessage.noSuchOrder, { cause }),
  unknownOrder: (cause?: unknown) =>
    new ExchangeError('rejected', ErrorCode.cancelRejected, BinanceMessage.unknownOrder, { cause }),
  invalidSymbol: (cause?: unknown) =>
    new ExchangeError('rejected', ErrorCode.badSymbol, BinanceMessage.invalidSymbol, { cause }),
  reduceOnly: (cause?: unknown) =>
    new ExchangeError('rejected', ErrorCode.reduceOnlyRejected, BinanceMessage.reduceOnly, {
      cause,
      reason: 'reduce_only_rejected',
    }),
  /** A post-only limit order that would trade at once: spot -2010, futures -5022; nothing was placed. */
  wouldTake: (market: 'spot' | 'future', cause?: unknown) =>
    market === 'spot'
      ? new ExchangeError('rejected', ErrorCode.newOrderRejected, BinanceMessage.wouldTakeSpot, {
          cause,
          reason: 'would_take',
        })
      : new ExchangeError('rejected', ErrorCode.postOnlyRejected, BinanceMessage.wouldTakeFutures, {
          cause,
          reason: 'would_take',
        }),
  invalidLeverage: (cause?: unknown) =>
    new ExchangeError('rejected', ErrorCode.invalidLeverage, BinanceMessage.invalidLeverage, { cause }),
  invalidParameter: (message: string, cause?: unknown) =>
    new ExchangeError('rejected', ErrorCode.invalidParameter, message, { cause }),
  invalidKey: (cause?: unknown) =>
    new ExchangeError('fatal', ErrorCode.rejectedMbxKey, BinanceMessage.invalidKey, { cause }),
  timestamp: (message: string = BinanceMessage.timestamp, cause?: unknown) =>
    new ExchangeError('retryable', ErrorCode.timestamp, message, { cause }),
  rateLimited: (cause?: unknown) =>
    new ExchangeError('retryable', ErrorCode.tooManyRequests, BinanceMessage.tooManyRequests, { cause }),
  noAnswer: (message: string, cause?: unknown) =>
    new ExchangeError('retryable', ErrorCode.timeout, message, { cause }),
  /** An order request that may or may not have executed; keeps the code (and reason) of what happened. */
  outcomeUnknown: (from: ExchangeError) =>
    new ExchangeError('unknown', from.code, from.userMessage, {
      cause: from,
      ...(from.reason ? { reason: from.reason } : {}),
    }),
};
