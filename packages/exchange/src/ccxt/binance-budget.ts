import type { BudgetCost, BudgetWindow } from '../budget/request-budget';

/**
 * What each Binance request costs in the shared request budgets (budget/request-budget.ts), from Binance's
 * documentation:
 *
 * - Spot, per IP: "The limits on the API are based on the IPs, not the API keys" ([spot rest-api.md] "LIMITS" →
 *   "IP Limits"); REQUEST_WEIGHT 6000 per 1 MINUTE ([spot enums.md] "Rate limiters (rateLimitType)", the
 *   `/api/v3/exchangeInfo` `rateLimits`).
 * - Spot, per account: "The number of unfilled orders is tracked for each account" ("Unfilled Order Count");
 *   ORDERS 50 per 10 SECOND and 160000 per 1 DAY ([spot rest-api.md] "Query Unfilled Order Count", response).
 *   Every new order is counted, filled or not: a fill only gives room back, never takes more.
 * - USDⓈ-M futures, per IP: REQUEST_WEIGHT 2400 per 1 MINUTE; per account: ORDERS 1200 per 1 MINUTE and 300 per
 *   10 SECOND ([USDⓈ-M futures] "Exchange Information", the `rateLimits` of its response; "General Info" →
 *   "LIMITS": "IP Limits" are per IP, "The order rate limit is counted against each account").
 * - USDⓈ-M "Get Funding Rate History": "share 500/5min/IP rate limit with GET /fapi/v1/fundingInfo" (its own
 *   budget, not the weight).
 *
 * Windows are fixed and aligned as Binance counts them (`windowAt`). The budget spends `HEADROOM` of each limit:
 * a request granted in the last moments of a window can reach Binance in the next one, and anything else on the
 * IP (a person's script, the market feed's REST reads) counts too.
 */
export const HEADROOM = 0.9;

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

const within = (limit: number, windowMs: number): BudgetWindow => ({
  limit: Math.floor(limit * HEADROOM),
  windowMs,
});

export const BINANCE_LIMITS = {
  spotWeight: [within(6000, MINUTE)],
  spotOrders: [within(50, 10 * SECOND), within(160_000, DAY)],
  usdmWeight: [within(2400, MINUTE)],
  usdmOrders: [within(1200, MINUTE), within(300, 10 * SECOND)],
  usdmFundingRate: [within(500, 5 * MINUTE)],
} as const satisfies Record<string, readonly BudgetWindow[]>;

/** The windows of each Binance budget: `BINANCE_LIMITS`, or an account tier's own (tests: smaller figures). */
export type BinanceLimits = { readonly [K in keyof typeof BINANCE_LIMITS]: readonly BudgetWindow[] };

/** The budgets' windows for limits as Binance states them (`[limit, windowMs]` pairs): `HEADROOM` of each. */
export function binanceLimitsOf(
  stated: Partial<Record<keyof BinanceLimits, ReadonlyArray<readonly [number, number]>>>,
): Partial<BinanceLimits> {
  return Object.fromEntries(
    Object.entries(stated).map(([budget, windows]) => [
      budget,
      (windows ?? []).map(([limit, windowMs]) => within(limit, windowMs)),
    ]),
  );
}

export type BinanceVenue = 'spot' | 'usdm';

/** Whose budgets a client spends: the egress IP it leaves by and the exchange account of its key. */
export interface BudgetIdentity {
  /** The egress IP's name (`EXCHANGE_EGRESS`); processes behind one address share it. */
  egress: string;
  /** The exchange account: a digest of the API key, or `public` for unsigned clients. */
  account: string;
}

/** The budget keys of a venue, for requests and for back-off answers. */
export function binanceKeys(venue: BinanceVenue, who: BudgetIdentity) {
  return {
    ip: `binance:${venue}:ip:${who.egress}`,
    orders: `binance:${venue}:orders:${who.account}`,
    fundingRate: `binance:${venue}:funding-rate:${who.egress}`,
  };
}

type Params = Record<string, unknown>;
/** A weight as a function of the request's parameters. */
type Weigh = (params: Params) => number;
const fixed =
  (weight: number): Weigh =>
  () =>
    weight;
const bySymbol =
  (withSymbol: number, without: number): Weigh =>
  (p) =>
    p.symbol === undefined ? without : withSymbol;

/**
 * Spot weights ([spot rest-api.md], "Weight:" of each endpoint): GET /api/v3/ping 1, /time 1, /exchangeInfo 20;
 * /ticker/price 2 with a symbol, 4 without; /klines 2; /account 20; POST /order 1; GET /order 4; DELETE /order 1;
 * /openOrders 6 with a symbol, 80 without; /myTrades 20, 5 with orderId. SAPI endpoints count toward their own
 * limits (UID weight for /sapi/v1/asset/transfer); they are rare (a user's transfer, a key check) and are
 * charged 1 here in the spot IP budget, which can only over-count.
 */
const SPOT_WEIGHTS: Record<string, Weigh> = {
  'GET ping': fixed(1),
  'GET time': fixed(1),
  'GET exchangeInfo': fixed(20),
  'GET ticker/price': bySymbol(2, 4),
  'GET klines': fixed(2),
  'GET account': fixed(20),
  'POST order': fixed(1),
  'GET order': fixed(4),
  'DELETE order': fixed(1),
  'GET openOrders': bySymbol(6, 80),
  'GET myTrades': (p) => (p.orderId === undefined ? 20 : 5),
};

/**
 * USDⓈ-M weights ([USDⓈ-M futures], "Request Weight" of each endpoint): /fapi/v1/ping 1, /time 1,
 * /exchangeInfo 1; /ticker/price 1 with a symbol, 2 without; /klines by LIMIT: [1,100) 1, [100,500) 2,
 * [500,1000] 5, > 1000 10; /fapi/v2/balance 5; POST /order "0 on IP rate limit" (1 on the order limits);
 * GET and DELETE /order 1; /openOrders 1 with a symbol, 40 without; /userTrades 5; /forceOrders 20 with a
 * symbol, 50 without; POST /leverage 1, /marginType 1; GET /positionSide/dual 30; /fapi/v2/positionRisk 5.
 */
const USDM_WEIGHTS: Record<string, Weigh> = {
  'GET ping': fixed(1),
  'GET time': fixed(1),
  'GET exchangeInfo': fixed(1),
  'GET ticker/price': bySymbol(1, 2),
  'GET klines': (p) => {
    const limit = Number(p.limit ?? 500);
    return limit < 100 ? 1 : limit < 500 ? 2 : limit <= 1000 ? 5 : 10;
  },
  'GET balance': fixed(5),
  'POST order': fixed(0),
  'GET order': fixed(1),
  'DELETE order': fixed(1),
  'GET openOrders': bySymbol(1, 40),
  'GET userTrades': fixed(5),
  'GET forceOrders': bySymbol(20, 50),
  'POST leverage': fixed(1),
  'POST marginType': fixed(1),
  'GET positionSide/dual': fixed(30),
  'GET positionRisk': fixed(5),
};

/** An endpoint not listed above: charged as a heavy one rather than risk the IP. */
const UNLISTED_WEIGHT = 20;

/**
 * The costs of one request as ccxt is about to send it (`api` is ccxt's section name: `public`, `private`,
 * `sapi`, `fapiPublic`, `fapiPrivate`, `fapiPrivateV2`, …; `path` has no version prefix). With `weighted` false
 * (tests) only the back-offs are honoured.
 */
export function binanceCosts(
  venue: BinanceVenue,
  request: { api: string; method: string; path: string; params: Params },
  who: BudgetIdentity,
  options: { limits?: Partial<BinanceLimits>; weighted?: boolean } = {},
): BudgetCost[] {
  const limits: BinanceLimits = { ...BINANCE_LIMITS, ...options.limits };
  const weighted = options.weighted ?? true;
  const keys = binanceKeys(venue, who);
  const method = request.method.toUpperCase();
  const endpoint = `${method} ${request.path}`;
  const isOrder = method === 'POST' && request.path === 'order';
  const costs: BudgetCost[] = [];
  const cost = (key: string, weight: number, windows: readonly BudgetWindow[]) =>
    costs.push(weighted ? { key, weight, windows } : { key, weight: 0, windows: [] });
  if (venue === 'usdm' && request.path === 'fundingRate') {
    cost(keys.fundingRate, 1, limits.usdmFundingRate);
  }
  const table = venue === 'spot' ? SPOT_WEIGHTS : USDM_WEIGHTS;
  const weigh = request.api.startsWith('sapi') ? fixed(1) : table[endpoint];
  const weight = request.path === 'fundingRate' ? 0 : (weigh?.(request.params) ?? UNLISTED_WEIGHT);
  cost(keys.ip, weight, venue === 'spot' ? limits.spotWeight : limits.usdmWeight);
  if (isOrder) cost(keys.orders, 1, venue === 'spot' ? limits.spotOrders : limits.usdmOrders);
  return costs;
}
