import { okx } from 'ccxt';
import type { RequestBudget } from '../budget/request-budget';
import type { BudgetIdentity } from './binance-budget';
import {
  answeredRequest,
  budgetAccountOf,
  headerOf,
  processRequestBudget,
  spendBeforeSending,
} from './budget-spending';
import { OKX_PAUSE_MS, okxCosts, okxKey } from './okx-budget';

export interface OkxClientOptions {
  apiKey?: string;
  secret?: string;
  /** OKX API keys carry a passphrase chosen when the key was made ([rest-auth] OK-ACCESS-PASSPHRASE). */
  passphrase?: string;
  /** OKX's demo trading (the x-simulated-trading: 1 header). */
  sandbox?: boolean;
  /** Replaces the origin of every OKX REST URL (tests: the loopback fake server). */
  baseUrl?: string;
  /** The endpoint budgets (back-offs are always honoured). Default true; tests turn it off. */
  enableRateLimit?: boolean;
  /** The request budget every client spends (default: this process's own, in memory); tests pass their own. */
  budget?: RequestBudget;
  /** The egress IP's name in the budget keys (`EXCHANGE_EGRESS`). Default `default`. */
  egress?: string;
  /** Request timeout in ms. Default 10,000. */
  timeoutMs?: number;
  /** How long an order request stays valid after it is signed (`expTime`). Default `OKX_ORDER_DEADLINE_MS`. */
  orderDeadlineMs?: number;
}

/**
 * [rest-auth] "REST Authentication": a signed request expires 30 seconds after its OK-ACCESS-TIMESTAMP
 * (50102 "Timestamp request expired").
 */
export const OKX_REQUEST_EXPIRY_MS = 30_000;

/**
 * [overview "Transaction Timeouts"] "If expTime is specified in the requests for Place (multiple) orders or Amend
 * (multiple) orders, the request will not be processed if the current system time of the server is after the
 * expTime" (a request header, Unix ms; [error-code] 50036 "The expTime can't be earlier than the current
 * system time", 50037 "Order expired."). Every order request carries one this long after it is signed, as
 * Binance's recvWindow defaults to 5,000 ms: an order whose answer was lost is known dead seconds later, not
 * after the 30 s a signed request otherwise lives. It needs our clock within seconds of OKX's, as Binance does.
 */
export const OKX_ORDER_DEADLINE_MS = 5000;

/** The POST paths (after /api/v5/) that honour `expTime`: placing and amending, one or several orders. */
const DEADLINE_PATHS: ReadonlySet<string> = new Set([
  'trade/order',
  'trade/batch-orders',
  'trade/amend-order',
  'trade/amend-batch-orders',
]);

/**
 * How long after an order call that ended without a clear answer the order may still reach OKX's engine:
 * a request signed at most when the call ended is dead at its `expTime` (or 30 s after its timestamp, were
 * that sooner), plus a second our clock may lead OKX's. After that, "no such order" is final.
 */
export function okxLateOrderWindowMs(options: Pick<OkxClientOptions, 'orderDeadlineMs'>): number {
  return Math.min(options.orderDeadlineMs ?? OKX_ORDER_DEADLINE_MS, OKX_REQUEST_EXPIRY_MS) + 1000;
}

/**
 * OKX's refusal as it sent it, before ccxt rewords it: the body's `code`/`msg`, or for an order refused
 * under code "1" the order's own `sCode`/`sMsg` ([place-order] response).
 */
export class OkxApiError extends Error {
  override readonly name = 'OkxApiError';
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    readonly msg: string,
  ) {
    super(`HTTP ${httpStatus} ${code} ${msg}`);
  }
}

/**
 * One ccxt `okx` client for an account: API v5 for spot and USDT swaps alike. Markets are loaded for SPOT
 * and SWAP only (ccxt would also load futures and options), currencies not at all (a signed call the port
 * never needs).
 */
export function createOkxClient(options: OkxClientOptions): okx {
  const client = new okx({
    apiKey: options.apiKey,
    secret: options.secret,
    password: options.passphrase,
    // Always on: the budget below replaces ccxt's throttle and honours back-offs even when weights are off.
    enableRateLimit: true,
    timeout: options.timeoutMs ?? 10_000,
    // ccxt would put its broker id (and a random clOrdId) on an order sent without one; every order here
    // carries its own clOrdId, and no tag is wanted.
    options: { fetchMarkets: { types: ['spot', 'swap'] }, brokerId: '' },
  });
  (client.has as Record<string, unknown>).fetchCurrencies = false;
  if (options.sandbox) client.setSandboxMode(true);
  const budget = options.budget ?? processRequestBudget;
  const who: BudgetIdentity = {
    egress: options.egress ?? 'default',
    account: budgetAccountOf(options.apiKey),
  };
  const weighted = options.enableRateLimit ?? true;
  spendBeforeSending(client, (request) =>
    budget.take({ account: who.account, costs: okxCosts(request, who, { weighted }) }),
  );
  keepOkxErrors(client, { budget, who });
  stampOrderDeadlines(client, options.orderDeadlineMs ?? OKX_ORDER_DEADLINE_MS);
  if (options.baseUrl) {
    const api = client.urls.api as Record<string, string>;
    api.rest = options.baseUrl.replace(/\/$/, '');
  }
  return client;
}

/**
 * Adds `expTime` to every order request as it is signed, which ccxt does right before sending (after the
 * request budget's wait), so the deadline counts from when the request leaves.
 */
function stampOrderDeadlines(client: okx, deadlineMs: number): void {
  const sign = client.sign.bind(client);
  client.sign = ((...args: Parameters<okx['sign']>) => {
    const [path, api, method] = args;
    const signed = sign(...args);
    if (api !== 'private' || method !== 'POST' || !DEADLINE_PATHS.has(String(path))) return signed;
    return { ...signed, headers: { ...signed.headers, expTime: String(client.milliseconds() + deadlineMs) } };
  }) as okx['sign'];
}

/**
 * Every v5 body with a code other than "0" is thrown as an `OkxApiError` first, its code kept. A back-off answer
 * ([overview-rate-limits] 50011 "Rate limit reached", HTTP 429; the order's own sCode 50011 in a code "1"
 * answer; [error-code] 50061 "Sub-account rate limit exceeded") first pauses the request's budget, in every
 * process, for `OKX_PAUSE_MS`.
 */
function keepOkxErrors(client: okx, spender: { budget: RequestBudget; who: BudgetIdentity }): void {
  const original = client.handleErrors.bind(client);
  client.handleErrors = ((...args: Parameters<okx['handleErrors']>) => {
    const [httpStatus, , url, method, , , response, requestHeaders, requestBody] = args;
    const body = response as { code?: unknown; msg?: unknown; data?: unknown } | undefined;
    const first = Array.isArray(body?.data)
      ? (body.data[0] as Record<string, unknown> | undefined)
      : undefined;
    const codes = [String(body?.code ?? ''), String(first?.sCode ?? '')];
    if (Number(httpStatus) === 429 || codes.includes('50011') || codes.includes('50061')) {
      const signed = headerOf(requestHeaders, 'ok-access-key') !== undefined;
      const { key } = okxKey(answeredRequest(url, method, requestBody, '/api/v5/'), spender.who, signed);
      // Never blocks the answer's handling: the pause is set in this process at once, in Redis meanwhile.
      void spender.budget.backOff(key, OKX_PAUSE_MS).catch(() => undefined);
    }
    if (body && body.code !== undefined && String(body.code) !== '0') {
      if (first?.sCode !== undefined && String(first.sCode) !== '0')
        throw new OkxApiError(Number(httpStatus), Number(first.sCode), String(first.sMsg ?? ''));
      throw new OkxApiError(Number(httpStatus), Number(body.code), String(body.msg ?? ''));
    }
    return original(...args);
  }) as okx['handleErrors'];
}
