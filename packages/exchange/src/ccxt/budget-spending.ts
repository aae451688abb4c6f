import { createHash } from 'node:crypto';
import type { Exchange as CcxtClient } from 'ccxt';
import {
  type BudgetWindow,
  FairRequestBudget,
  MemoryBudgetCounter,
  type RequestBudget,
} from '../budget/request-budget';

/** The process's budget, for clients given none (a process without split roles counts alone). */
export const processRequestBudget: RequestBudget = new FairRequestBudget(new MemoryBudgetCounter());

/** A request as a ccxt client is about to send it: `path` without the venue's version prefix. */
export interface OutgoingRequest {
  /** ccxt's section name: `public`, `private`, `sapi`, `fapiPrivate`, … */
  api: string;
  method: string;
  path: string;
  params: Record<string, unknown>;
}

/**
 * The account an API key belongs to, as a budget name: a digest, so no key is ever written to Redis. One user's
 * key is one exchange account (Binance's account, Bybit's and OKX's User ID).
 */
export function budgetAccountOf(apiKey: string | undefined): string {
  if (!apiKey) return 'public';
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
}

/**
 * Every request of the client first waits for `spend` (its costs taken from the shared budget, its turn come)
 * before ccxt signs it: a request signed before a long wait would fall out of its receive window. ccxt's own
 * per-client throttle is off; the budget replaces it.
 */
export function spendBeforeSending(
  client: CcxtClient,
  spend: (request: OutgoingRequest) => Promise<void>,
): void {
  client.enableRateLimit = false;
  const fetch2 = client.fetch2.bind(client);
  client.fetch2 = (async (...args: Parameters<CcxtClient['fetch2']>) => {
    const [path, api = 'public', method = 'GET', params = {}] = args;
    await spend({
      api: String(api),
      method: String(method),
      path: String(path),
      params: params as Record<string, unknown>,
    });
    return fetch2(...args);
  }) as CcxtClient['fetch2'];
}

/**
 * The request an answer belongs to, from what ccxt's `handleErrors` is given: the URL's path less `prefix`
 * (`/v5/`, `/api/v5/`) and the parameters, from the query of a GET and the JSON body of a POST.
 */
export function answeredRequest(
  url: string,
  method: string,
  requestBody: unknown,
  prefix: string,
): Omit<OutgoingRequest, 'api'> {
  const parsed = new URL(url);
  const params: Record<string, unknown> = {};
  for (const [name, value] of parsed.searchParams) params[name] = value;
  if (typeof requestBody === 'string' && requestBody.startsWith('{')) {
    try {
      Object.assign(params, JSON.parse(requestBody) as Record<string, unknown>);
    } catch {
      // Not JSON: the path alone names the budget.
    }
  }
  const path = parsed.pathname.startsWith(prefix) ? parsed.pathname.slice(prefix.length) : parsed.pathname;
  return { method: method.toUpperCase(), path, params };
}

/**
 * A limit the exchange counts in a rolling window, as fixed windows of the budget: any rolling window of that
 * length overlaps two fixed ones, so each fixed one spends half of the limit (and of that `headroom`, for other
 * traffic of the same account or address). Never less than one request per window.
 */
export function rollingLimit(limit: number, windowMs: number, headroom: number): BudgetWindow {
  return { limit: Math.max(1, Math.floor((limit * headroom) / 2)), windowMs };
}

/** A response header by its lower-case name, whatever case the exchange sent it in. */
export function headerOf(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() === name && value !== undefined && value !== null) return String(value);
  }
  return undefined;
}
