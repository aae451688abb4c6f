import type { BudgetCost } from '../budget/request-budget';
import { type BudgetIdentity, HEADROOM } from './binance-budget';
import { type OutgoingRequest, rollingLimit } from './budget-spending';

/**
 * What each OKX API v5 request costs in the shared request budgets (budget/request-budget.ts), from OKX's
 * documentation (www.okx.com/docs-v5/en):
 *
 * - [overview-rate-limits] "Rate Limits": "The rate limit is different for each endpoint"; "Public
 *   unauthenticated REST rate limits are based on IP address"; "Private REST rate limits are based on User ID
 *   (sub-accounts have individual User IDs)"; for place, cancel and amend order "Rate limits are defined on the
 *   Instrument ID level". A request past its limit is refused with 50011 "Rate limit reached" (HTTP 429).
 * - Each endpoint's own "Rate Limit" and "Rate limit rule" (the figures are requests per 2 seconds): Place order
 *   60 (User ID + Instrument ID), Cancel order 60 (User ID + Instrument ID), Get order details 60 (User ID +
 *   Instrument ID), Get order List 60 (User ID), Get transaction details (last 3 days, /trade/fills) 60 (User
 *   ID); Get balance 10, Get positions 10, Get positions history 10, Get account configuration 5, Get leverage
 *   20, Set leverage 20, Set position mode 5 (User ID); Get ticker 20 (IP), Get instruments 20 (IP +
 *   Instrument Type), Get system time 10 (IP). ccxt's own table of OKX's endpoint costs, read from the same pages,
 *   gives the same figures for every endpoint here (okx-budget.test.ts checks them against it).
 *
 * OKX does not say whether its windows are fixed or rolling; the budget assumes they roll (`rollingLimit`: half
 * of each limit per fixed window, and of that the `HEADROOM` every budget keeps). Each endpoint (and instrument)
 * is its own budget: a burst of balance reads never holds up the account's orders.
 */
const TWO_SECONDS = 2_000;

/** Requests per 2 s, and what tells apart the budgets of one endpoint beyond the user or the IP. */
interface EndpointLimit {
  limit: number;
  /** Counted per IP (public market data) rather than per User ID. */
  perIp?: boolean;
  /** The parameter whose value has a budget of its own (`instId`, `instType`). */
  by?: string;
}

export const OKX_ENDPOINTS: Record<string, EndpointLimit> = {
  'POST trade/order': { limit: 60, by: 'instId' },
  'POST trade/cancel-order': { limit: 60, by: 'instId' },
  'GET trade/order': { limit: 60, by: 'instId' },
  'GET trade/orders-pending': { limit: 60 },
  'GET trade/fills': { limit: 60 },
  'GET account/balance': { limit: 10 },
  'GET account/positions': { limit: 10 },
  'GET account/positions-history': { limit: 10 },
  'GET account/config': { limit: 5 },
  'GET account/leverage-info': { limit: 20 },
  'POST account/set-leverage': { limit: 20 },
  'POST account/set-position-mode': { limit: 5 },
  'GET market/ticker': { limit: 20, perIp: true },
  'GET public/instruments': { limit: 20, perIp: true, by: 'instType' },
  'GET public/time': { limit: 10, perIp: true },
};

/** An endpoint the table does not list: the smallest figure above, 5 per 2 s, per User ID (per IP if public). */
const UNLISTED_LIMIT = 5;

/** The budget key of a request: its endpoint's, per User ID or per IP, and per instrument where OKX counts so. */
export function okxKey(
  request: Pick<OutgoingRequest, 'method' | 'path' | 'params'>,
  who: BudgetIdentity,
  signed: boolean,
): { key: string; limit: number } {
  const endpoint = `${request.method.toUpperCase()} ${request.path}`;
  const known = OKX_ENDPOINTS[endpoint];
  const perIp = known ? known.perIp === true : !signed;
  const by = known?.by ? request.params[known.by] : undefined;
  const owner = perIp ? `ip:${who.egress}` : `uid:${who.account}`;
  const scope = by === undefined || by === null || by === '' ? '' : `:${String(by)}`;
  return { key: `okx:${owner}:${endpoint.replace(' ', ':')}${scope}`, limit: known?.limit ?? UNLISTED_LIMIT };
}

/**
 * The costs of one request as ccxt is about to send it (`path` like `trade/order`, `api` `public` or
 * `private`). With `weighted` false (tests) only the back-offs are honoured.
 */
export function okxCosts(
  request: OutgoingRequest,
  who: BudgetIdentity,
  options: { weighted?: boolean } = {},
): BudgetCost[] {
  const { key, limit } = okxKey(request, who, request.api === 'private');
  if (!(options.weighted ?? true)) return [{ key, weight: 0, windows: [] }];
  return [{ key, weight: 1, windows: [rollingLimit(limit, TWO_SECONDS, HEADROOM)] }];
}

/** 50011 carries no reset time: the budget it broke pauses for one window, the 2 s every limit is counted in. */
export const OKX_PAUSE_MS = TWO_SECONDS;
