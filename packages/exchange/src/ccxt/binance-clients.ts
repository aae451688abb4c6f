import { binance, binanceusdm } from 'ccxt';
import type { RequestBudget } from '../budget/request-budget';
import {
  type BinanceLimits,
  type BinanceVenue,
  type BudgetIdentity,
  binanceCosts,
  binanceKeys,
} from './binance-budget';
import { budgetAccountOf, headerOf, processRequestBudget, spendBeforeSending } from './budget-spending';

export interface BinanceClientOptions {
  apiKey?: string;
  secret?: string;
  /** `BINANCE_SANDBOX=true`: Binance's spot testnet and futures testnet. */
  sandbox?: boolean;
  /** Replaces the origin of every Binance REST URL (`BINANCE_REST_URL`; tests: the loopback fake server). */
  baseUrl?: string;
  /** Weight and order budgets (back-offs are always honoured). Default true; tests turn it off. */
  enableRateLimit?: boolean;
  /** The request budget every client spends (default: this process's own, in memory); tests pass their own. */
  budget?: RequestBudget;
  /** The egress IP's name in the budget keys (`EXCHANGE_EGRESS`). Default `default`. */
  egress?: string;
  /** The budgets' windows when they are not Binance's defaults (an account tier's own; tests). */
  limits?: Partial<BinanceLimits>;
  /** Request timeout in ms. Default 10,000. */
  timeoutMs?: number;
  /** `recvWindow` of signed requests in ms (default 5,000); tests shorten it. */
  recvWindowMs?: number;
}

/**
 * [spot rest-api.md] "Timing security": `recvWindow` is "the number of milliseconds after timestamp the
 * request is valid for"; "If recvWindow is not sent, it defaults to 5000" and the docs recommend "5000 or
 * less". The same for USDⓈ-M futures ("General Info", Timing Security).
 */
export const BINANCE_RECV_WINDOW_MS = 5000;

/**
 * How long after an order call that ended without a clear answer the order may still reach Binance's
 * matching engine: a -1007 "does not always mean that the request failed in the Matching Engine" ([spot
 * rest-api.md] "General API Information"), and a request is processed `if (timestamp < (serverTime + 1000)
 * && (serverTime - timestamp) <= recvWindow)` ("Timing security"). The request's timestamp is at most the
 * moment the call ended, and our clock may lead Binance's by up to 1000 ms: after recvWindow + 1000 ms,
 * "Order does not exist." (-2013) is final.
 */
export function lateOrderWindowMs(options: Pick<BinanceClientOptions, 'recvWindowMs'>): number {
  return (options.recvWindowMs ?? BINANCE_RECV_WINDOW_MS) + 1000;
}

/** ccxt clients for one account: `binance` for spot (+ sapi transfers), `binanceusdm` for USDT-M futures. */
export function createBinanceClients(options: BinanceClientOptions): { spot: binance; usdm: binanceusdm } {
  const common = {
    apiKey: options.apiKey,
    secret: options.secret,
    // Always on: the throttle hook below waits out 429/418 pauses even when weight throttling is off.
    enableRateLimit: true,
    timeout: options.timeoutMs ?? 10_000,
  };
  const spot = new binance({
    ...common,
    options: {
      fetchMarkets: { types: ['spot'] },
      fetchMargins: false,
      fetchCurrencies: false,
      recvWindow: options.recvWindowMs ?? BINANCE_RECV_WINDOW_MS,
    },
  });
  const usdm = new binanceusdm({
    ...common,
    options: {
      fetchMarkets: { types: ['linear'] },
      fetchCurrencies: false,
      recvWindow: options.recvWindowMs ?? BINANCE_RECV_WINDOW_MS,
      disableFuturesSandboxWarning: true,
    },
  });
  if (options.sandbox) {
    spot.setSandboxMode(true);
    usdm.setSandboxMode(true);
  }
  const budget = options.budget ?? processRequestBudget;
  const weighted = options.enableRateLimit ?? true;
  const who: BudgetIdentity = {
    egress: options.egress ?? 'default',
    account: budgetAccountOf(options.apiKey),
  };
  const spending = { limits: options.limits ?? {}, weighted };
  spendBudget(spot, 'spot', budget, who, spending);
  spendBudget(usdm, 'usdm', budget, who, spending);
  keepBinanceErrors(spot, { venue: 'spot', budget, who });
  keepBinanceErrors(usdm, { venue: 'usdm', budget, who });
  if (options.baseUrl) {
    pointAt(spot, options.baseUrl);
    pointAt(usdm, options.baseUrl);
  }
  return { spot, usdm };
}

/** Rewrites every REST base URL of a client to `baseUrl`, keeping the path (`/api/v3`, `/fapi/v1`, …). */
function pointAt(client: binance, baseUrl: string): void {
  const api = client.urls.api as Record<string, string>;
  for (const key of Object.keys(api)) {
    const value = api[key];
    if (typeof value === 'string') api[key] = value.replace(/^https?:\/\/[^/]+/, baseUrl.replace(/\/$/, ''));
  }
}

/**
 * Every request of the client first takes its costs from the shared budget (the venue's IP weight, the
 * account's orders), waiting its turn.
 */
function spendBudget(
  client: binance,
  venue: BinanceVenue,
  budget: RequestBudget,
  who: BudgetIdentity,
  spending: { limits: Partial<BinanceLimits>; weighted: boolean },
): void {
  spendBeforeSending(client, (request) =>
    budget.take({ account: who.account, costs: binanceCosts(venue, request, who, spending) }),
  );
}

/** Binance's error as it sent it: code and message, before ccxt rewords it into one of its classes. */
export class BinanceApiError extends Error {
  override readonly name = 'BinanceApiError';
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    readonly msg: string,
    /** `Retry-After` of a 429/418, in seconds. */
    readonly retryAfterSec?: number,
  ) {
    super(`HTTP ${httpStatus} ${code} ${msg}`);
  }
}

/**
 * ccxt rewrites some Binance errors ("binance Account has insufficient balance…") and drops the
 * code. Every body of the form `{ code: <negative>, msg }` is thrown as a `BinanceApiError` first.
 */
function keepBinanceErrors(
  client: binance,
  spender: { venue: BinanceVenue; budget: RequestBudget; who: BudgetIdentity },
): void {
  const original = client.handleErrors.bind(client);
  client.handleErrors = ((...args: Parameters<binance['handleErrors']>) => {
    const [httpStatus, , , , headers, , response] = args;
    const status = Number(httpStatus);
    let retryAfterSec: number | undefined;
    if (status === 429 || status === 418) {
      // "LIMITS": a Retry-After header (seconds) comes with a 418 or 429; every holder of the budget waits.
      const raw = headerOf(headers, 'retry-after');
      retryAfterSec = raw === undefined ? undefined : Number(raw);
    }
    const body = response as { code?: unknown; msg?: unknown } | undefined;
    if (status === 429 || status === 418) backOff(spender, status, body?.code, retryAfterSec);
    if (body && typeof body.code === 'number' && body.code < 0 && typeof body.msg === 'string') {
      throw new BinanceApiError(status, body.code, body.msg, retryAfterSec);
    }
    return original(...args);
  }) as binance['handleErrors'];
}

/** Pause after a 429/418 that carries no usable `Retry-After` (a 418 ban lasts 2 minutes at first). */
const DEFAULT_PAUSE_MS: Readonly<Record<429 | 418, number>> = { 429: 1_000, 418: 120_000 };

/**
 * A 429 or 418 pauses the budget it broke, in every process: -1015 "Too many new orders" ([spot errors.md];
 * "Unfilled Order Count": a 429 when the account's order limit is exceeded) pauses the account's orders only;
 * any other 429 (-1003, the request weight) and every 418 (the IP is banned) pause the IP's weight.
 */
function backOff(
  spender: { venue: BinanceVenue; budget: RequestBudget; who: BudgetIdentity },
  status: 429 | 418,
  code: unknown,
  retryAfterSec: number | undefined,
): void {
  const ms =
    retryAfterSec !== undefined && Number.isFinite(retryAfterSec) && retryAfterSec >= 0
      ? retryAfterSec * 1000
      : DEFAULT_PAUSE_MS[status];
  const keys = binanceKeys(spender.venue, spender.who);
  const key = status === 429 && code === -1015 ? keys.orders : keys.ip;
  // Never blocks the answer's handling: the pause is set in this process at once, in Redis meanwhile.
  void spender.budget.backOff(key, ms).catch(() => undefined);
}
