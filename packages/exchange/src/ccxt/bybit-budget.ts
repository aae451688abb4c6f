import type { BudgetCost, BudgetWindow } from '../budget/request-budget';
import type { BudgetIdentity } from './binance-budget';
import { HEADROOM } from './binance-budget';
import { type OutgoingRequest, rollingLimit } from './budget-spending';

/**
 * What each Bybit V5 request costs in the shared request budgets (budget/request-budget.ts), from Bybit's
 * documentation (bybit-exchange/docs, docs/v5/rate-limit.mdx, cited [rate-limit]):
 *
 * - Per IP: "You are allowed to send 600 requests within a 5-second window per IP by default" ("IP Limit" →
 *   "HTTP IP limit"); past it, "403, access too frequent" and "wait for at least 10 minutes".
 * - Per UID and endpoint: "The API rate limit is based on the rolling time window per second and UID"
 *   ("API Rate Limit"), with each endpoint's figure in the "API Rate Limit Table" (classic account), some by
 *   category: POST /v5/order/create and /v5/order/cancel, GET /v5/order/realtime, /v5/order/history and
 *   /v5/execution/list 10/s on linear, 20/s on spot; GET /v5/position/list, /v5/position/closed-pnl and POST
 *   /v5/position/set-leverage 10/s; GET /v5/account/wallet-balance 20/s with accountType=SPOT, 10/s with
 *   CONTRACT; GET /v5/user/query-api 10/s; POST /v5/asset/transfer/inter-transfer 60 per minute. Past it,
 *   retCode 10006 "Too many visits!" until X-Bapi-Limit-Reset-Timestamp.
 *
 * Both windows roll, so the budget counts them as fixed windows of the same length spending half of each limit
 * (`rollingLimit`), and of that the `HEADROOM` every budget keeps. Each endpoint (and category) is its own budget
 * of the account: a burst of order look-ups never holds up the account's order creations.
 */
const SECOND = 1_000;
const MINUTE = 60 * SECOND;

export const BYBIT_LIMITS = {
  ip: [rollingLimit(600, 5 * SECOND, HEADROOM)],
} as const satisfies Record<string, readonly BudgetWindow[]>;

/** The windows of the IP budget: `BYBIT_LIMITS`, or a test's own. */
export type BybitLimits = { readonly [K in keyof typeof BYBIT_LIMITS]: readonly BudgetWindow[] };

type Params = Record<string, unknown>;
/** An endpoint's limit per UID: requests per window, by the request's parameters. */
interface UidLimit {
  limit: (params: Params) => number;
  windowMs: number;
  /** The part of the key that tells apart the budgets of one endpoint (the category, the account type). */
  scope?: (params: Params) => string;
}

const byCategory = (linear: number, spot: number): UidLimit => ({
  limit: (p) => (p.category === 'spot' ? spot : linear),
  windowMs: SECOND,
  scope: (p) => String(p.category ?? ''),
});
const perSecond = (limit: number): UidLimit => ({ limit: () => limit, windowMs: SECOND });

/** [rate-limit] "API Rate Limit Table", classic account: "Trade", "Position", "Account", "Asset", "User". */
const UID_LIMITS: Record<string, UidLimit> = {
  'POST order/create': byCategory(10, 20),
  'POST order/cancel': byCategory(10, 20),
  'GET order/realtime': byCategory(10, 20),
  'GET order/history': byCategory(10, 20),
  'GET execution/list': byCategory(10, 20),
  'GET position/list': perSecond(10),
  'GET position/closed-pnl': perSecond(10),
  'POST position/set-leverage': perSecond(10),
  'GET account/wallet-balance': {
    limit: (p) => (p.accountType === 'SPOT' ? 20 : 10),
    windowMs: SECOND,
    scope: (p) => String(p.accountType ?? ''),
  },
  'GET user/query-api': perSecond(10),
  'POST asset/transfer/inter-transfer': { limit: () => 60, windowMs: MINUTE },
};

/**
 * A private endpoint the table does not list (POST /v5/position/switch-isolated, /v5/position/switch-mode):
 * charged the table's smallest per-second figure, 5/s (GET /v5/account/fee-rate on spot).
 */
const UNLISTED: UidLimit = perSecond(5);

/** The budget keys of a request: the IP's, and for a signed request its UID's endpoint budget. */
export function bybitKeys(request: Pick<OutgoingRequest, 'method' | 'path' | 'params'>, who: BudgetIdentity) {
  const endpoint = `${request.method.toUpperCase()} ${request.path.replace(/^v5\//, '')}`;
  const uid = UID_LIMITS[endpoint] ?? UNLISTED;
  const scope = uid.scope?.(request.params);
  return {
    ip: `bybit:ip:${who.egress}`,
    uid: `bybit:uid:${who.account}:${endpoint.replace(' ', ':')}${scope ? `:${scope}` : ''}`,
    uidLimit: uid,
  };
}

/**
 * The costs of one request as ccxt is about to send it (`path` like `v5/order/create`, `api` `public` or
 * `private`). Public market data (tickers, instruments, time) costs on the IP only. With `weighted` false
 * (tests) only the back-offs are honoured.
 */
export function bybitCosts(
  request: OutgoingRequest,
  who: BudgetIdentity,
  options: { limits?: Partial<BybitLimits>; weighted?: boolean } = {},
): BudgetCost[] {
  const limits: BybitLimits = { ...BYBIT_LIMITS, ...options.limits };
  const weighted = options.weighted ?? true;
  const keys = bybitKeys(request, who);
  const costs: BudgetCost[] = [];
  const cost = (key: string, windows: readonly BudgetWindow[]) =>
    costs.push(weighted ? { key, weight: 1, windows } : { key, weight: 0, windows: [] });
  cost(keys.ip, limits.ip);
  if (request.api === 'private') {
    const { limit, windowMs } = keys.uidLimit;
    cost(keys.uid, [rollingLimit(limit(request.params), windowMs, HEADROOM)]);
  }
  return costs;
}

/** [rate-limit] "HTTP IP limit": after "403, access too frequent", "wait for at least 10 minutes". */
export const BYBIT_IP_BAN_MS = 10 * MINUTE;
/** A 10006 without a usable X-Bapi-Limit-Reset-Timestamp: the rolling window's length. */
export const BYBIT_UID_PAUSE_MS = SECOND;
