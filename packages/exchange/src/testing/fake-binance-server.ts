import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MarketKind } from '@gridbot/shared';
import type { NumCandle } from '../feeds/candle-book';
import { BinanceReject, FakeBinanceBook, type LeverageBracket } from './fake-binance-book';
import { FakeFundingRates, FakeKlines } from './fake-binance-klines';
import {
  type FakeKeyPermissions,
  keyPermissionRoute,
  permissionRefusal,
  tradingKeyPermissions,
} from './fake-binance-permissions';
import { binanceRoutes, type FakeRoute } from './fake-binance-routes';
import { header, readBody } from './loopback-http';

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  apiKey: string | undefined;
  /** What the fake did with it: answered, or the fault it injected. */
  outcome: 'answered' | Fault['kind'];
  /** When the double took it up (its clock, ms): the window it was counted in. */
  atMs: number;
}

/**
 * A fault for one request, as Binance's documentation says they happen ("HTTP Return Codes", "LIMITS"
 * and "Error codes" of binance-spot-api-docs rest-api.md / errors.md, same sections for USDⓈ-M):
 * - `answer`: the request is answered with `status`/`body` without being executed (a 4xx, or a 5xx
 *   before the request reached the matching engine);
 * - `executedThenError`: the request is executed, then answered with an error, e.g. HTTP 503 with
 *   -1007 "Timeout waiting for response from backend server. Send status unknown; execution status
 *   unknown." ("It is important to NOT treat this as a failure operation; the execution status is
 *   UNKNOWN and could have been a success.");
 * - `executedThenDrop`: executed, then the connection is closed without an answer (response lost);
 * - `resetBefore`: the connection is reset before the request reaches the server (not executed);
 * - `rateLimit`: HTTP 429 (request rate limit broken) or 418 (IP auto-banned after 429s), with a
 *   `Retry-After` header in seconds ("A Retry-After header is sent with a 418 or 429 responses"). A 418
 *   bans every request of the IP until it ends.
 * - `lateOrder`: the request is answered with -1007 (`answer: 'timeout'`) or its answer is lost
 *   (`'drop'`) before the matching engine has it, and it is executed `delayMs` later, but never later than
 *   its `timestamp + recvWindow`: a -1007 "does not always mean that the request failed in the Matching
 *   Engine" ([spot rest-api.md] "General API Information"), and a request is processed while
 *   `(serverTime - timestamp) <= recvWindow` ("Timing security"). Until then a look-up says -2013.
 */
export type Fault =
  | { kind: 'answer'; status: number; body: unknown }
  | { kind: 'executedThenError'; status: number; body: unknown }
  | { kind: 'executedThenDrop' }
  | { kind: 'resetBefore' }
  | { kind: 'rateLimit'; status: 429 | 418; retryAfterSec: number }
  | { kind: 'lateOrder'; answer: 'timeout' | 'drop'; delayMs: number };

/** One fixed window of a limit: at most `limit` per `windowMs`, windows aligned to the epoch. */
export interface FakeLimit {
  limit: number;
  windowMs: number;
}

/**
 * The limits the double enforces, as Binance documents them (tests may shrink the figures, never the rules):
 * - `spotWeight`: REQUEST_WEIGHT 6000 per 1 MINUTE per IP ([spot enums.md] "Rate limiters (rateLimitType)";
 *   [spot rest-api.md] "IP Limits": "The limits on the API are based on the IPs, not the API keys").
 * - `usdmWeight`: REQUEST_WEIGHT 2400 per 1 MINUTE per IP ([USDⓈ-M futures] "Exchange Information" rateLimits).
 * - `spotOrders`, `spotOrdersDay`: ORDERS 50 per 10 SECOND and 160000 per 1 DAY per account ([spot rest-api.md]
 *   "Query Unfilled Order Count", its response). The double counts every accepted order; Binance gives room back
 *   when orders fill, so the double is the stricter.
 * - `usdmOrders`, `usdmOrdersShort`: ORDERS 1200 per 1 MINUTE and 300 per 10 SECOND per account ([USDⓈ-M
 *   futures] "Exchange Information", the `rateLimits` of its response).
 * Windows start at multiples of their length ("a 1 MINUTE interval starts every minute", [spot
 * web-socket-api.md] "Rate limits"). SAPI endpoints have limits of their own and are not counted here.
 */
export interface FakeBinanceLimits {
  spotWeight: FakeLimit;
  usdmWeight: FakeLimit;
  spotOrders: FakeLimit;
  spotOrdersDay: FakeLimit;
  usdmOrders: FakeLimit;
  usdmOrdersShort: FakeLimit;
}

export const BINANCE_DOCUMENTED_LIMITS: FakeBinanceLimits = {
  spotWeight: { limit: 6000, windowMs: 60_000 },
  usdmWeight: { limit: 2400, windowMs: 60_000 },
  spotOrders: { limit: 50, windowMs: 10_000 },
  spotOrdersDay: { limit: 160_000, windowMs: 86_400_000 },
  usdmOrders: { limit: 1200, windowMs: 60_000 },
  usdmOrdersShort: { limit: 300, windowMs: 10_000 },
};

/** The order limits a new order counts in, per endpoint. */
const ORDER_LIMITS: Record<string, ReadonlyArray<keyof FakeBinanceLimits>> = {
  'POST /api/v3/order': ['spotOrders', 'spotOrdersDay'],
  'POST /fapi/v1/order': ['usdmOrders', 'usdmOrdersShort'],
};

interface Injection {
  target: string;
  fault: Fault;
  remaining: number;
}

/** -1007 as [spot errors.md] words it. */
export const TIMEOUT_UNKNOWN = {
  code: -1007,
  msg: 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
};

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * A loopback server that speaks Binance's REST API for the endpoints the platform uses (spot /api/v3,
 * /sapi/v1/asset/transfer, USDⓈ-M /fapi), following Binance's documentation rather than our code: see
 * `FakeBinanceBook` for the trading rules and the doc sections they follow. It checks the API key, the
 * HMAC-SHA256 signature over the exact query and body ([spot rest-api.md] "SIGNED (TRADE, USER_DATA,
 * AND MARGIN) Endpoint security"), the timestamp against its own clock, each endpoint's mandatory
 * parameters, and injects faults per request (`inject`).
 */
export class FakeBinanceServer {
  readonly book: FakeBinanceBook;
  /** Kline history (`setKlines`). */
  readonly klines = new FakeKlines();
  /** Funding-rate history (`setFundingRates`). */
  readonly fundingRates = new FakeFundingRates();
  readonly requests: RecordedRequest[] = [];
  /** Added to the server's clock: a large value makes every signed request fail with -1021. */
  clockSkewMs = 0;
  /** End of a 418 IP ban (server clock, ms). */
  bannedUntilMs = 0;
  /** The limits enforced (`BINANCE_DOCUMENTED_LIMITS` unless the test gave others). */
  readonly limits: FakeBinanceLimits;
  /** Weight and order counts per `<ip or key>|<limit>|<window number>`: what each window was charged. */
  readonly counted = new Map<string, number>();
  /** Every API key the double knows, with its secret (`addKey`); all trade on the one book. */
  private readonly keys = new Map<string, string>();
  private readonly injections: Injection[] = [];
  /** Requests of `lateOrder` faults still on their way to the matching engine. */
  private readonly lateRequests = new Set<NodeJS.Timeout>();
  private readonly routes: Map<string, FakeRoute>;
  /** The key's rights (GET /sapi/v1/account/apiRestrictions); a trading call without the right gets -2015. */
  keyPermissions: FakeKeyPermissions = tradingKeyPermissions();
  private server: Server | undefined;

  private constructor(
    readonly apiKey: string,
    readonly secret: string,
    brackets: Record<string, readonly LeverageBracket[]> | undefined,
    limits: Partial<FakeBinanceLimits> = {},
  ) {
    this.limits = { ...BINANCE_DOCUMENTED_LIMITS, ...limits };
    this.keys.set(apiKey, secret);
    this.book = new FakeBinanceBook({ now: () => this.now(), ...(brackets ? { brackets } : {}) });
    this.routes = binanceRoutes(this);
    this.routes.set(
      'GET /sapi/v1/account/apiRestrictions',
      keyPermissionRoute(() => this.keyPermissions, this.now()),
    );
  }

  /** Starts on 127.0.0.1 at a random free port (or `port`). */
  static async start(
    options: {
      apiKey?: string;
      secret?: string;
      port?: number;
      brackets?: Record<string, readonly LeverageBracket[]>;
      limits?: Partial<FakeBinanceLimits>;
    } = {},
  ): Promise<FakeBinanceServer> {
    const fake = new FakeBinanceServer(
      options.apiKey ?? 'test-api-key',
      options.secret ?? 'test-secret',
      options.brackets,
      options.limits,
    );
    fake.server = createServer((req, res) => {
      fake.handle(req, res).catch((error: unknown) => send(res, 500, { code: -1000, msg: String(error) }));
    });
    await new Promise<void>((resolve) => fake.server!.listen(options.port ?? 0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  now(): number {
    return Date.now() + this.clockSkewMs;
  }

  /**
   * The next `times` requests matching `target` get `fault`. `target` is a path prefix, optionally with
   * the method first: 'POST /api/v3/order'.
   */
  inject(target: string, fault: Fault, times = 1): void {
    this.injections.push({ target, fault, remaining: times });
  }

  /** Another account's key pair (its orders count apart; every key trades on the one book). */
  addKey(apiKey: string, secret: string): void {
    this.keys.set(apiKey, secret);
  }

  /** The most weight (or orders) one window of `limit` was charged, over every IP (or key). */
  peak(limit: keyof FakeBinanceLimits): number {
    let peak = 0;
    for (const [id, used] of this.counted) if (id.split('|')[1] === limit) peak = Math.max(peak, used);
    return peak;
  }

  /** Whether a fault injected for exactly `target` still waits for its request. */
  faultPending(target: string): boolean {
    return this.injections.some((f) => f.remaining > 0 && f.target === target);
  }

  /** The next `times` requests matching `target` are answered with this status and body, unexecuted. */
  failNext(target: string, status: number, body: unknown, times = 1): void {
    this.inject(target, { kind: 'answer', status, body }, times);
  }

  /** The funding rates the server answers for a USDT-M perpetual (rate as a fraction per 8 h). */
  setFundingRates(symbol: string, rows: readonly { fundingTime: number; fundingRate: number }[]): void {
    this.fundingRates.set(symbol, rows);
  }

  /** The klines the server answers for a pair and interval. */
  setKlines(symbol: string, market: MarketKind, interval: string, candles: readonly NumCandle[]): void {
    this.klines.set(symbol, market, interval, candles);
  }

  /** Moves the price; `volume` caps what resting orders fill on this move (see `FakeBinanceBook.setPrice`). */
  setPrice(symbol: string, market: MarketKind, price: string, volume?: string): void {
    this.book.setPrice(symbol, market, price, volume);
  }

  /** Order POSTs that reached the server (executed or refused), for "sent once" checks. */
  orderPosts(market: MarketKind = 'spot'): RecordedRequest[] {
    const path = market === 'spot' ? '/api/v3/order' : '/fapi/v1/order';
    return this.requests.filter((r) => r.method === 'POST' && r.path === path && r.outcome !== 'resetBefore');
  }

  async close(): Promise<void> {
    for (const timer of this.lateRequests) clearTimeout(timer);
    this.lateRequests.clear();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rawQuery = url.search.startsWith('?') ? url.search.slice(1) : '';
    const rawBody = await readBody(req);
    const params: Record<string, string> = {};
    // [spot rest-api.md] "If a parameter sent in both the query string and request body, the query
    // string parameter will be used."
    for (const [k, v] of new URLSearchParams(rawBody)) params[k] = v;
    for (const [k, v] of new URLSearchParams(rawQuery)) params[k] = v;
    const apiKey = header(req, 'x-mbx-apikey');
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      params,
      apiKey,
      outcome: 'answered',
      atMs: this.now(),
    };
    this.requests.push(record);

    // [spot rest-api.md] LIMITS: an IP banned with 418 gets 418 on every request until the ban ends.
    if (this.bannedUntilMs > this.now()) {
      record.outcome = 'rateLimit';
      return this.banned(res);
    }
    const target = `${req.method} ${url.pathname}`;
    const injection = this.injections.find(
      (f) => f.remaining > 0 && (url.pathname.startsWith(f.target) || target.startsWith(f.target)),
    );
    if (injection) injection.remaining -= 1;
    const fault = injection?.fault;
    if (fault) record.outcome = fault.kind;
    if (fault?.kind === 'resetBefore') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'answer') return send(res, fault.status, fault.body);
    if (fault?.kind === 'rateLimit') {
      if (fault.status === 418) {
        this.bannedUntilMs = this.now() + fault.retryAfterSec * 1000;
        return this.banned(res);
      }
      return send(
        res,
        429,
        {
          code: -1003,
          msg: 'Too many requests; current limit of IP(127.0.0.1) is 6000 requests per minute.',
        },
        { 'retry-after': String(fault.retryAfterSec) },
      );
    }

    const route = this.routes.get(target);
    if (!route) return send(res, 404, { code: -1000, msg: `No fake for ${target}` });
    const overWeight = this.chargeWeight(req, url.pathname, route, params, res);
    if (overWeight) {
      record.outcome = 'rateLimit';
      return send(res, 429, overWeight.body, { 'retry-after': String(overWeight.retryAfterSec) });
    }
    if (route.signed) {
      const problem =
        this.checkSigned(apiKey, rawQuery, rawBody, params) ?? permissionRefusal(target, this.keyPermissions);
      if (problem) return send(res, problem.status, { code: problem.code, msg: problem.msg });
    }
    const overOrders = this.chargeOrder(target, apiKey);
    if (overOrders) {
      record.outcome = 'rateLimit';
      return send(res, 429, overOrders.body, { 'retry-after': String(overOrders.retryAfterSec) });
    }
    const missing = route.required.find((name) => params[name] === undefined || params[name] === '');
    if (missing) {
      return send(res, 400, {
        code: -1102,
        msg: `Mandatory parameter '${missing}' was not sent, was empty/null, or malformed.`,
      });
    }
    if (fault?.kind === 'lateOrder') return this.executeLate(route, params, fault, req, res);
    let body: unknown;
    try {
      body = route.handle(params);
    } catch (error) {
      if (error instanceof BinanceReject)
        return send(res, error.status, { code: error.code, msg: error.msg });
      throw error;
    }
    if (fault?.kind === 'executedThenDrop') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'executedThenError') return send(res, fault.status, fault.body);
    send(res, 200, body);
  }

  /**
   * Charges the request's weight to its IP's window ([spot rest-api.md] "IP Limits": "Every request will contain
   * X-MBX-USED-WEIGHT-(intervalNum)(intervalLetter) in the response headers which has the current used weight
   * for the IP"). Over the limit: HTTP 429 -1003 with `Retry-After` in seconds ("A Retry-After header is sent
   * with a 418 or 429 responses and will give the number of seconds required to wait, in the case of a 429, to
   * prevent a ban"), here the time left in the window; the refused request is not charged.
   */
  private chargeWeight(
    req: IncomingMessage,
    path: string,
    route: FakeRoute,
    params: Record<string, string>,
    res: ServerResponse,
  ): { body: unknown; retryAfterSec: number } | undefined {
    const limit = path.startsWith('/api/')
      ? 'spotWeight'
      : path.startsWith('/fapi/')
        ? 'usdmWeight'
        : undefined;
    if (!limit) return undefined;
    const weight = typeof route.weight === 'function' ? route.weight(params) : route.weight;
    const ip = req.socket.remoteAddress ?? '127.0.0.1';
    const { id, used, leftMs } = this.window(ip, limit);
    if (used + weight > this.limits[limit].limit) {
      return {
        body: {
          code: -1003,
          msg: `Too many requests; current limit of IP(${ip}) is ${this.limits[limit].limit} requests per minute. Please use the websocket for live updates to avoid polling the API.`,
        },
        retryAfterSec: Math.max(1, Math.ceil(leftMs / 1000)),
      };
    }
    this.counted.set(id, used + weight);
    res.setHeader('x-mbx-used-weight-1m', String(used + weight));
    return undefined;
  }

  /**
   * Counts a new order against its account's window ("The number of unfilled orders is tracked for each
   * account"; USDⓈ-M: "The order rate limit is counted against each account"). Over it: HTTP 429 -1015 "Too
   * many new orders" ([spot errors.md]; [spot rest-api.md] "Unfilled Order Count": "you will receive a 429
   * error with the Retry-After header").
   */
  private chargeOrder(
    target: string,
    apiKey: string | undefined,
  ): { body: unknown; retryAfterSec: number } | undefined {
    const limits = ORDER_LIMITS[target];
    if (!limits || !apiKey) return undefined;
    const windows = limits.map((limit) => ({ ...this.window(apiKey, limit), ...this.limits[limit] }));
    // Counted in every window or in none: a refused order counts nowhere.
    const over = windows.find((w) => w.used + 1 > w.limit);
    if (over) {
      return {
        body: {
          code: -1015,
          msg: `Too many new orders; current limit is ${over.limit} orders per ${over.windowMs / 1000} SECOND.`,
        },
        retryAfterSec: Math.max(1, Math.ceil(over.leftMs / 1000)),
      };
    }
    for (const w of windows) this.counted.set(w.id, w.used + 1);
    return undefined;
  }

  private window(who: string, limit: keyof FakeBinanceLimits): { id: string; used: number; leftMs: number } {
    const { windowMs } = this.limits[limit];
    const now = this.now();
    const slot = Math.floor(now / windowMs);
    const id = `${who}|${limit}|${slot}`;
    return { id, used: this.counted.get(id) ?? 0, leftMs: (slot + 1) * windowMs - now };
  }

  /** A `lateOrder` fault: answered (or not) now, executed later within the request's recvWindow. */
  private executeLate(
    route: FakeRoute,
    params: Record<string, string>,
    fault: Extract<Fault, { kind: 'lateOrder' }>,
    req: IncomingMessage,
    res: ServerResponse,
  ): void {
    const expiresAt = Number(params.timestamp) + Number(params.recvWindow ?? 5000);
    const timer = setTimeout(
      () => {
        this.lateRequests.delete(timer);
        if (this.now() - Number(params.timestamp) > Number(params.recvWindow ?? 5000)) return;
        try {
          route.handle(params);
        } catch (error) {
          // Refused by the matching engine (e.g. insufficient balance): no order, as Binance would leave.
          if (!(error instanceof BinanceReject)) throw error;
        }
      },
      Math.max(0, Math.min(fault.delayMs, expiresAt - this.now())),
    );
    this.lateRequests.add(timer);
    if (fault.answer === 'drop') {
      req.socket.destroy();
      return;
    }
    send(res, 503, TIMEOUT_UNKNOWN);
  }

  private banned(res: ServerResponse): void {
    const seconds = Math.max(1, Math.ceil((this.bannedUntilMs - this.now()) / 1000));
    send(
      res,
      418,
      {
        code: -1003,
        msg: `Way too many requests; IP(127.0.0.1) banned until ${this.bannedUntilMs}. Please use the websocket for live updates to avoid bans.`,
      },
      { 'retry-after': String(seconds) },
    );
  }

  /** Binance's checks of a SIGNED endpoint, in its order: key, timestamp, signature. */
  private checkSigned(
    apiKey: string | undefined,
    rawQuery: string,
    rawBody: string,
    params: Record<string, string>,
  ) {
    const secret = apiKey === undefined ? undefined : this.keys.get(apiKey);
    if (secret === undefined) {
      return { status: 401, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' };
    }
    const timestamp = Number(params.timestamp);
    const recvWindow = Number(params.recvWindow ?? 5000);
    const serverTime = this.now();
    if (!Number.isFinite(timestamp)) {
      return {
        status: 400,
        code: -1102,
        msg: "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed.",
      };
    }
    if (timestamp > serverTime + 1000) {
      return {
        status: 400,
        code: -1021,
        msg: "Timestamp for this request was 1000ms ahead of the server's time.",
      };
    }
    if (serverTime - timestamp > recvWindow) {
      return { status: 400, code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' };
    }
    const signature = params.signature ?? '';
    const payload = stripSignature(rawQuery) + stripSignature(rawBody);
    const expected = createHmac('sha256', secret).update(payload).digest('hex');
    const ok =
      signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
    return ok ? undefined : { status: 400, code: -1022, msg: 'Signature for this request is not valid.' };
  }
}

/** totalParams = query string + body, each without its `signature` parameter (Binance SIGNED rules). */
function stripSignature(raw: string): string {
  return raw.replace(/&?signature=[0-9a-fA-F]*$/, '');
}
