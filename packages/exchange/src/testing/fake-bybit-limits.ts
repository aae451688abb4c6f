import type { RollingLimits } from './fake-rolling-limits';

/**
 * Bybit's rate limits as the double enforces them, from bybit-exchange/docs docs/v5/rate-limit.mdx ([rate-limit]):
 * - "IP Limit" → "HTTP IP limit": "600 requests within a 5-second window per IP"; past it "403, access too
 *   frequent", and the client should "wait for at least 10 minutes" (the double bans the IP that long).
 * - "API Rate Limit": "based on the rolling time window per second and UID"; past it "retCode": 10006, "retMsg":
 *   "Too many visits!", with X-Bapi-Limit-Status ("your remaining requests for current endpoint"), X-Bapi-Limit
 *   ("your current limit for current endpoint") and X-Bapi-Limit-Reset-Timestamp ("the timestamp indicating when
 *   your request limit resets if you have exceeded your rate_limit").
 * - "API Rate Limit Table", classic account, per endpoint (linear / spot where they differ): order/create,
 *   order/cancel, order/realtime, order/history, execution/list 10/s / 20/s; position/list,
 *   position/closed-pnl, position/set-leverage 10/s; account/wallet-balance accountType=SPOT 20/s, CONTRACT
 *   10/s; user/query-api 10/s; asset/transfer/inter-transfer 60 per minute. Endpoints the table does not list
 *   are not limited here.
 */
export const BYBIT_IP_LIMIT = { limit: 600, windowMs: 5_000, banMs: 10 * 60_000 };

type Params = Record<string, unknown>;
const byCategory = (linear: number, spot: number) => (p: Params) => ({
  limit: p.category === 'spot' ? spot : linear,
  windowMs: 1_000,
  scope: String(p.category),
});
const perSecond = (limit: number) => () => ({ limit, windowMs: 1_000, scope: '' });

const UID_LIMITS: Record<string, (p: Params) => { limit: number; windowMs: number; scope: string }> = {
  'POST /v5/order/create': byCategory(10, 20),
  'POST /v5/order/cancel': byCategory(10, 20),
  'GET /v5/order/realtime': byCategory(10, 20),
  'GET /v5/order/history': byCategory(10, 20),
  'GET /v5/execution/list': byCategory(10, 20),
  'GET /v5/position/list': perSecond(10),
  'GET /v5/position/closed-pnl': perSecond(10),
  'POST /v5/position/set-leverage': perSecond(10),
  'GET /v5/account/wallet-balance': (p) => ({
    limit: p.accountType === 'SPOT' ? 20 : 10,
    windowMs: 1_000,
    scope: String(p.accountType),
  }),
  'GET /v5/user/query-api': perSecond(10),
  'POST /v5/asset/transfer/inter-transfer': () => ({ limit: 60, windowMs: 60_000, scope: '' }),
};

/**
 * Counts a signed request against its UID's limit for the endpoint: undefined for an endpoint without one, else
 * whether it fits and the X-Bapi-Limit-* headers of the answer.
 */
export function bybitUidLimit(
  limits: RollingLimits,
  uid: string,
  target: string,
  params: Params,
): { ok: boolean; headers: Record<string, string> } | undefined {
  const rule = UID_LIMITS[target]?.(params);
  if (!rule) return undefined;
  const counted = limits.hit(`uid:${uid}|${target}|${rule.scope}`, rule.limit, rule.windowMs);
  return {
    ok: counted.ok,
    headers: {
      'x-bapi-limit': String(rule.limit),
      'x-bapi-limit-status': String(counted.remaining),
      'x-bapi-limit-reset-timestamp': String(counted.resetAtMs),
    },
  };
}
