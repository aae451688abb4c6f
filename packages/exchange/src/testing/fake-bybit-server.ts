import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { MarketKind } from '@gridbot/shared';
import { type BybitCategory, BybitReject, FakeBybitBook } from './fake-bybit-book';
import { BYBIT_IP_LIMIT, bybitUidLimit } from './fake-bybit-limits';
import {
  executionRow,
  instrumentsInfo,
  orderRow,
  positionRows,
  ticker,
  walletBalance,
} from './fake-bybit-shapes';
import { RollingLimits } from './fake-rolling-limits';
import {
  closeLoopback,
  InjectedFaults,
  type LateOrderFault,
  type LoopbackRecordedRequest,
  listenLoopback,
  loopbackUrl,
  readLoopbackRequest,
} from './loopback-faults';
import { header, send } from './loopback-http';

export type BybitRecordedRequest = LoopbackRecordedRequest<BybitFault['kind'] | 'ipLimit' | 'uidLimit'>;

/**
 * A fault for one request:
 * - `answer`: answered with `status`/`body`, not executed (an HTTP 5xx before the request reached the
 *   trading engine; [error] HTTP code table);
 * - `executedThenError`: executed, then answered with an HTTP 5xx ([create-order] "The ack of create order
 *   request indicates that the request is successfully accepted": a lost ack says nothing of the order);
 * - `executedThenDrop`: executed, then the connection closes without an answer;
 * - `resetBefore`: the connection resets before the request arrives (not executed);
 * - `rateLimited`: [rate-limit] "retCode 10006, retMsg Too many visits!" with the X-Bapi-Limit-* headers,
 *   not executed;
 * - `lateOrder`: answered with an HTTP 5xx (`'error'`) or not at all (`'drop'`) before the engine has it,
 *   executed `delayMs` later, but only while its timestamp is still valid: [guide] "server_time -
 *   recv_window <= timestamp < server_time + 1000".
 */
export type BybitFault =
  | { kind: 'answer'; status: number; body: unknown }
  | { kind: 'executedThenError'; status: number }
  | { kind: 'executedThenDrop' }
  | { kind: 'resetBefore' }
  | { kind: 'rateLimited'; resetInMs: number }
  | LateOrderFault;

type Params = Record<string, unknown>;
interface Route {
  signed: boolean;
  required: readonly string[];
  handle(p: Params): unknown;
}

const ok = (result: unknown, time: number) => ({ retCode: 0, retMsg: 'OK', result, retExtInfo: {}, time });
const category = (p: Params): BybitCategory => {
  if (p.category === 'spot' || p.category === 'linear') return p.category;
  throw new BybitReject(10001, 'params error: category invalid');
};
const text = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : String(v));

/**
 * A loopback server speaking Bybit's V5 REST API for what ccxt's bybit class calls on behalf of the adapter,
 * following bybit-exchange/docs (docs/v5/…; the book cites the trading rules): [guide] "Integration
 * Guidance" authentication: X-BAPI-API-KEY, X-BAPI-TIMESTAMP, X-BAPI-RECV-WINDOW (default 5000) and X-BAPI-SIGN
 * = HMAC_SHA256(timestamp + api key + recv_window + (queryString | jsonBodyString)), hex; an unknown key is
 * [error] 10003 "API key is invalid.", a bad signature 10004 "Error sign, please check your signature
 * generation algorithm.", a timestamp outside the window 10002. Every answer is the V5 envelope {retCode,
 * retMsg, result, retExtInfo, time}.
 */
export class FakeBybitServer {
  readonly book: FakeBybitBook;
  readonly requests: BybitRecordedRequest[] = [];
  clockSkewMs = 0;
  private readonly faults = new InjectedFaults<BybitFault>();
  private readonly routes: Map<string, Route>;
  private server: Server | undefined;
  /** Secret and UID of every key; each key is its own UID, trading on the one book. */
  private readonly keys = new Map<string, { secret: string; uid: string }>();
  /** Requests counted against Bybit's limits ([rate-limit]), when the double enforces them. */
  readonly limits: RollingLimits;
  private ipBannedUntil = 0;

  private constructor(
    readonly apiKey: string,
    readonly secret: string,
    private readonly enforceLimits: boolean,
  ) {
    this.book = new FakeBybitBook({ now: () => this.now() });
    this.routes = this.buildRoutes();
    this.limits = new RollingLimits(() => this.now());
    this.addKey(apiKey, secret);
  }

  /**
   * `rateLimits`: answer as Bybit does past its IP and UID limits (fake-bybit-limits.ts). Off by default, so
   * tests of other rules may call as fast as they like.
   */
  static async start(
    options: { apiKey?: string; secret?: string; rateLimits?: boolean } = {},
  ): Promise<FakeBybitServer> {
    const fake = new FakeBybitServer(
      options.apiKey ?? 'bybit-test-key',
      options.secret ?? 'bybit-test-secret',
      options.rateLimits ?? false,
    );
    fake.server = await listenLoopback(
      (req, res) => fake.handle(req, res),
      (res, error) => send(res, 500, { retCode: 10016, retMsg: String(error) }),
    );
    return fake;
  }

  get url(): string {
    return loopbackUrl(this.server);
  }

  now(): number {
    return Date.now() + this.clockSkewMs;
  }

  setPrice(symbol: string, market: MarketKind, price: string): void {
    this.book.setPrice(symbol, market, price);
  }

  /** Another account's key: a UID of its own (its own rate limits) on the same book. */
  addKey(apiKey: string, secret: string): void {
    this.keys.set(apiKey, { secret, uid: String(1000 + this.keys.size) });
  }

  /** Answers refused for a rate limit: 10006 (a UID's endpoint limit) or 403 (the IP's). */
  rateLimitAnswers(): BybitRecordedRequest[] {
    return this.requests.filter(
      (r) => r.outcome === 'ipLimit' || r.outcome === 'uidLimit' || r.outcome === 'rateLimited',
    );
  }

  /** The next `times` requests whose "METHOD /path" or path starts with `target` get `fault`. */
  inject(target: string, fault: BybitFault, times = 1): void {
    this.faults.inject(target, fault, times);
  }

  /** Whether a fault injected for `target` is still waiting for its request. */
  faultPending(target: string): boolean {
    return this.faults.pending(target);
  }

  /** Order creations that reached the server (executed or refused). */
  orderPosts(): BybitRecordedRequest[] {
    return this.requests.filter((r) => r.path === '/v5/order/create' && r.outcome !== 'resetBefore');
  }

  async close(): Promise<void> {
    await closeLoopback(this.server, this.faults);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readLoopbackRequest(req, 'x-bapi-api-key');
    const { url, rawQuery, rawBody, params, apiKey, target } = request;
    const record: BybitRecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      params,
      apiKey,
      outcome: 'answered',
    };
    this.requests.push(record);
    const fault = this.faults.take(request, record);
    if (fault?.kind === 'resetBefore') return void req.socket.destroy();
    if (fault?.kind === 'answer') return send(res, fault.status, fault.body);
    if (fault?.kind === 'rateLimited') {
      // [rate-limit] "X-Bapi-Limit-Status - your remaining requests for current endpoint", "X-Bapi-Limit-Reset-Timestamp
      // - the timestamp indicating when your request limit resets if you have exceeded your rate_limit". Bybit ties
      // that timestamp to no other field ("it may not exactly match timeNow"); the fault states its reset as
      // `resetInMs` after the answer's `time`, so both come from one reading of the double's clock.
      const now = this.now();
      return send(
        res,
        200,
        { retCode: 10006, retMsg: 'Too many visits!', result: {}, retExtInfo: {}, time: now },
        {
          'x-bapi-limit': '10',
          'x-bapi-limit-status': '0',
          'x-bapi-limit-reset-timestamp': String(now + fault.resetInMs),
        },
      );
    }
    if (this.enforceLimits && !this.withinIpLimit()) {
      record.outcome = 'ipLimit';
      return send(res, 403, 'access too frequent');
    }
    const route = this.routes.get(target);
    if (!route) return send(res, 404, { retCode: 10017, retMsg: 'Route not found.' });
    let limitHeaders: Record<string, string> = {};
    try {
      if (route.signed) {
        this.checkSigned(req, apiKey, req.method === 'POST' ? rawBody : rawQuery);
        const counted = this.enforceLimits
          ? bybitUidLimit(this.limits, this.keys.get(apiKey ?? '')?.uid ?? '', target, params)
          : undefined;
        limitHeaders = counted?.headers ?? {};
        if (counted && !counted.ok) {
          record.outcome = 'uidLimit';
          return send(
            res,
            200,
            { retCode: 10006, retMsg: 'Too many visits!', result: {}, retExtInfo: {}, time: this.now() },
            limitHeaders,
          );
        }
      }
      const missing = route.required.find((name) => text(params[name]) === undefined);
      if (missing) throw new BybitReject(10001, `params error: ${missing} is required`);
      if (fault?.kind === 'lateOrder') return this.executeLate(route, params, fault, req, res);
      const result = route.handle(params);
      if (fault?.kind === 'executedThenDrop') return void req.socket.destroy();
      if (fault?.kind === 'executedThenError') return send(res, fault.status, 'Bad Gateway');
      send(res, 200, ok(result, this.now()), limitHeaders);
    } catch (error) {
      if (!(error instanceof BybitReject)) throw error;
      send(res, error.status, {
        retCode: error.retCode,
        retMsg: error.retMsg,
        result: {},
        retExtInfo: {},
        time: this.now(),
      });
    }
  }

  private executeLate(
    route: Route,
    params: Params,
    fault: LateOrderFault,
    req: IncomingMessage,
    res: ServerResponse,
  ): void {
    const timestamp = Number(header(req, 'x-bapi-timestamp'));
    const recvWindow = Number(header(req, 'x-bapi-recv-window') ?? 5000);
    const execute = () => {
      try {
        route.handle(params);
      } catch (error) {
        if (!(error instanceof BybitReject)) throw error;
      }
    };
    this.faults.lateOrder(fault, timestamp + recvWindow, () => this.now(), execute, req, res);
  }

  /** [guide] the checks of an authenticated endpoint: key, timestamp window, signature. */
  /**
   * [rate-limit] "HTTP IP limit": 600 requests in a rolling 5 s per IP (every request here comes from one
   * address); past it "403, access too frequent", and the IP is refused for the 10 minutes Bybit asks to wait.
   */
  private withinIpLimit(): boolean {
    if (this.now() < this.ipBannedUntil) return false;
    if (this.limits.hit('ip', BYBIT_IP_LIMIT.limit, BYBIT_IP_LIMIT.windowMs).ok) return true;
    this.ipBannedUntil = this.now() + BYBIT_IP_LIMIT.banMs;
    return false;
  }

  private checkSigned(req: IncomingMessage, apiKey: string | undefined, payload: string): void {
    const key = this.keys.get(apiKey ?? '');
    if (!key) throw new BybitReject(10003, 'API key is invalid.', 401);
    const timestamp = Number(header(req, 'x-bapi-timestamp'));
    const recvWindow = Number(header(req, 'x-bapi-recv-window') ?? 5000);
    const serverTime = this.now();
    if (
      !Number.isFinite(timestamp) ||
      !(serverTime - recvWindow <= timestamp && timestamp < serverTime + 1000)
    )
      throw new BybitReject(
        10002,
        `invalid request, please check your server timestamp or recv_window param. req_timestamp[${timestamp}],server_timestamp[${serverTime}],recv_window[${recvWindow}]`,
      );
    const expected = createHmac('sha256', key.secret)
      .update(`${timestamp}${apiKey}${header(req, 'x-bapi-recv-window') ?? ''}${payload}`)
      .digest('hex');
    const sign = header(req, 'x-bapi-sign') ?? '';
    if (sign.length !== expected.length || !timingSafeEqual(Buffer.from(sign), Buffer.from(expected)))
      throw new BybitReject(10004, 'Error sign, please check your signature generation algorithm.', 401);
  }

  private buildRoutes(): Map<string, Route> {
    const book = this.book;
    const r = (signed: boolean, required: readonly string[], handle: (p: Params) => unknown): Route => ({
      signed,
      required,
      handle,
    });
    const ids = (p: Params) => ({
      ...(text(p.symbol) ? { symbol: String(p.symbol) } : {}),
      ...(text(p.orderId) ? { orderId: String(p.orderId) } : {}),
      ...(text(p.orderLinkId) ? { orderLinkId: String(p.orderLinkId) } : {}),
    });
    return new Map<string, Route>([
      // [market/time] "Get Bybit Server Time".
      [
        'GET /v5/market/time',
        r(false, [], () => ({
          timeSecond: String(Math.floor(this.now() / 1000)),
          timeNano: `${this.now()}000000`,
        })),
      ],
      [
        'GET /v5/market/instruments-info',
        r(false, ['category'], (p) => instrumentsInfo(String(p.category), text(p.status))),
      ],
      [
        'GET /v5/market/tickers',
        r(false, ['category', 'symbol'], (p) => {
          const c = category(p);
          book.rules(String(p.symbol), c);
          return ticker(book, c, String(p.symbol));
        }),
      ],
      [
        // [user] "Get API Key Information": "Any permission can access this endpoint."
        'GET /v5/user/query-api',
        r(true, [], () => ({
          id: '16651472',
          note: 'gridbot',
          apiKey: this.apiKey,
          secret: '',
          ...book.apiKeyInfo,
          type: 1,
          unified: 0,
          uta: book.unified ? 1 : 0,
          userID: 53888001,
          vipLevel: 'No VIP',
        })),
      ],
      [
        'POST /v5/order/create',
        r(true, ['category', 'symbol', 'side', 'orderType', 'qty'], (p) => {
          const o = book.create(p);
          return { orderId: o.orderId, orderLinkId: o.orderLinkId };
        }),
      ],
      [
        // [open-order] for linear, "either symbol, baseCoin or settleCoin is required".
        'GET /v5/order/realtime',
        r(true, ['category'], (p) => {
          const c = category(p);
          if (
            c === 'linear' &&
            !text(p.symbol) &&
            !text(p.settleCoin) &&
            !text(p.orderId) &&
            !text(p.orderLinkId)
          )
            throw new BybitReject(10001, 'params error: symbol or settleCoin is required');
          return { category: c, ...page(book.realtime(c, ids(p)).map(orderRow), p, 20, 50) };
        }),
      ],
      [
        'GET /v5/order/history',
        r(true, ['category'], (p) => {
          const c = category(p);
          return { category: c, list: book.history(c, ids(p)).map(orderRow), nextPageCursor: '' };
        }),
      ],
      [
        'POST /v5/order/cancel',
        r(true, ['category', 'symbol'], (p) => {
          const o = book.cancel(category(p), String(p.symbol), ids(p));
          return { orderId: o.orderId, orderLinkId: o.orderLinkId };
        }),
      ],
      [
        'GET /v5/execution/list',
        r(true, ['category'], (p) => {
          const c = category(p);
          const q = {
            ...ids(p),
            ...(text(p.execType) ? { execType: String(p.execType) } : {}),
            ...(text(p.startTime) ? { startTime: Number(p.startTime) } : {}),
          };
          return { category: c, list: book.executionList(c, q).map(executionRow), nextPageCursor: '' };
        }),
      ],
      [
        // [position] for linear, "either symbol or settleCoin is required"; by settleCoin only held positions.
        'GET /v5/position/list',
        r(true, ['category'], (p) => {
          if (category(p) !== 'linear') throw new BybitReject(10001, 'params error: category invalid');
          const symbol = text(p.symbol);
          if (!symbol && !text(p.settleCoin))
            throw new BybitReject(10001, 'params error: symbol or settleCoin is required');
          if (symbol) book.rules(symbol, 'linear');
          const symbols = symbol ? [symbol] : [...book.positions.keys()];
          return {
            category: 'linear',
            ...page(
              symbols.flatMap((s) => positionRows(book, s, this.now())),
              p,
              20,
              200,
            ),
          };
        }),
      ],
      [
        // [close-pnl] GET /v5/position/closed-pnl: per closing order, closedPnl (the margin lost, for a
        // takeover liquidation).
        'GET /v5/position/closed-pnl',
        r(true, ['category'], (p) => {
          const from = text(p.startTime) ? Number(p.startTime) : 0;
          const closing = book.executions.filter(
            (e) =>
              e.category === 'linear' &&
              e.closedSize.gt(0) &&
              (!text(p.symbol) || e.symbol === p.symbol) &&
              e.execTime >= from,
          );
          return {
            category: 'linear',
            list: closing.reverse().map((e) => ({
              symbol: e.symbol,
              orderId: e.orderId,
              side: e.side,
              qty: e.execQty.toFixed(),
              orderType: 'Market',
              execType: e.execType,
              closedSize: e.closedSize.toFixed(),
              avgExitPrice: e.execPrice.toFixed(),
              cumExitValue: e.execValue.toFixed(),
              closedPnl: e.pnl.minus(e.execFee).toFixed(),
              fillCount: '1',
              createdTime: String(e.execTime),
              updatedTime: String(e.execTime),
            })),
            nextPageCursor: '',
          };
        }),
      ],
      [
        'POST /v5/position/set-leverage',
        r(true, ['category', 'symbol', 'buyLeverage', 'sellLeverage'], (p) => {
          book.setLeverage(String(p.symbol), String(p.buyLeverage), String(p.sellLeverage));
          return {};
        }),
      ],
      [
        'POST /v5/position/switch-isolated',
        r(true, ['category', 'symbol', 'tradeMode', 'buyLeverage', 'sellLeverage'], (p) => {
          book.switchIsolated(
            String(p.symbol),
            Number(p.tradeMode),
            String(p.buyLeverage),
            String(p.sellLeverage),
          );
          return {};
        }),
      ],
      [
        'POST /v5/position/switch-mode',
        r(true, ['category', 'mode'], (p) => {
          if (!text(p.symbol)) throw new BybitReject(10001, 'params error: symbol is required');
          book.switchMode(String(p.symbol), Number(p.mode));
          return {};
        }),
      ],
      [
        'GET /v5/account/wallet-balance',
        r(true, ['accountType'], (p) => {
          const type = String(p.accountType);
          if (book.unified && type !== 'UNIFIED')
            throw new BybitReject(10001, 'accountType only support UNIFIED.');
          if (type !== 'SPOT' && type !== 'CONTRACT')
            throw new BybitReject(10001, 'accountType only support SPOT, CONTRACT for a classic account');
          return walletBalance(book, type);
        }),
      ],
      [
        'POST /v5/asset/transfer/inter-transfer',
        r(true, ['transferId', 'coin', 'amount', 'fromAccountType', 'toAccountType'], (p) => {
          book.transfer(String(p.fromAccountType), String(p.toAccountType), String(p.coin), String(p.amount));
          return { transferId: String(p.transferId), status: 'SUCCESS' };
        }),
      ],
    ]);
  }
}

/**
 * One page of a listing: `limit` rows (the endpoint's default and maximum, [open-order] "[1, 50]. Default:
 * 20", [position] "[1, 200]. Default: 20") from `cursor` on, and the `nextPageCursor` of the rest ("" at the end).
 */
function page(rows: readonly unknown[], p: Params, byDefault: number, max: number) {
  const limit = Math.min(max, Math.max(1, Number(p.limit ?? byDefault)));
  const from = Number(text(p.cursor) ?? 0);
  const next = from + limit < rows.length ? String(from + limit) : '';
  return { list: rows.slice(from, from + limit), nextPageCursor: next };
}
