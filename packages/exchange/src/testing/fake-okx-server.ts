import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { MarketKind } from '@gridbot/shared';
import { FakeOkxBook, OkxReject } from './fake-okx-book';
import { withinOkxLimit } from './fake-okx-limits';
import {
  balanceRow,
  configRow,
  fillRow,
  instrumentRow,
  orderRow,
  positionRow,
  tickerRow,
} from './fake-okx-shapes';
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

export type OkxRecordedRequest = LoopbackRecordedRequest<OkxFault['kind'] | 'overLimit'>;

/**
 * A fault for one request:
 * - `answer`: answered with `status`/`body`, not executed (a gateway's 5xx before the request reached the
 *   trading engine);
 * - `executedThenError`: executed, then answered with an HTTP 5xx: the order's fate is unknown to the
 *   caller ([error-code] 50004 "API endpoint request timeout (does not mean that the request was
 *   successful or failed, please check the request result)");
 * - `executedThenDrop`: executed, then the connection closes without an answer;
 * - `resetBefore`: the connection resets before the request arrives (not executed);
 * - `rateLimited`: [error-code] 50011 "Rate limit reached. Please refer to API documentation and throttle
 *   requests accordingly." with HTTP 429, not executed;
 * - `lateOrder`: answered with an HTTP 5xx (`'error'`) or not at all (`'drop'`) before the engine has it,
 *   executed `delayMs` later, but only while its timestamp is still valid ([rest-auth] "the request will
 *   expire 30 seconds after the timestamp", 50102 "Timestamp request expired") and its `expTime`, if it has
 *   one, has not passed ([overview "Transaction Timeouts"]).
 */
export type OkxFault =
  | { kind: 'answer'; status: number; body: unknown }
  | { kind: 'executedThenError'; status: number }
  | { kind: 'executedThenDrop' }
  | { kind: 'resetBefore' }
  | { kind: 'rateLimited' }
  | LateOrderFault;

/** [rest-auth] a signed request is refused once its OK-ACCESS-TIMESTAMP is 30 seconds old. */
export const OKX_REQUEST_EXPIRY_MS = 30_000;

/**
 * [overview "Transaction Timeouts"] the routes whose `expTime` header counts: "If expTime is specified in the
 * requests for Place (multiple) orders or Amend (multiple) orders, the request will not be processed if the
 * current system time of the server is after the expTime."
 */
const DEADLINE_TARGETS: ReadonlySet<string> = new Set([
  'POST /api/v5/trade/order',
  'POST /api/v5/trade/batch-orders',
  'POST /api/v5/trade/amend-order',
  'POST /api/v5/trade/amend-batch-orders',
]);

/** The request's `expTime` (Unix ms) on a route that honours it; undefined without one. */
function deadlineOf(req: IncomingMessage, target: string): number | undefined {
  if (!DEADLINE_TARGETS.has(target)) return undefined;
  const value = Number(header(req, 'exptime') ?? Number.NaN);
  return Number.isFinite(value) ? value : undefined;
}

type Params = Record<string, unknown>;
interface Route {
  signed: boolean;
  required: readonly string[];
  handle(p: Params): unknown[];
}

const text = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : String(v));
const instTypeOf = (p: Params) => {
  const t = text(p.instType);
  if (t !== undefined && t !== 'SPOT' && t !== 'SWAP')
    throw new OkxReject('51000', 'Parameter instType error');
  return t;
};

/**
 * A loopback server speaking OKX's API v5 REST for what ccxt's okx class calls on behalf of the adapter,
 * following www.okx.com/docs-v5/en (the book cites the trading rules). [rest-auth] "REST Authentication":
 * a private request carries OK-ACCESS-KEY, OK-ACCESS-SIGN, OK-ACCESS-TIMESTAMP (ISO, e.g.
 * 2020-12-08T09:08:57.715Z) and OK-ACCESS-PASSPHRASE; the sign is Base64(HMAC-SHA256(secret, timestamp +
 * method + requestPath + body)), the query string counting as part of requestPath on a GET. Refusals
 * ([error-code] "REST API" 50xxx, HTTP 401): 50111 "Invalid OK-ACCESS-KEY", 50105 "Invalid
 * OK-ACCESS-PASSPHRASE", 50113 "Invalid Sign", 50102 "Timestamp request expired". Every answer is
 * {code, msg, data}; an order refusal is code "1" with the order's sCode and sMsg in data.
 */
export class FakeOkxServer {
  readonly book: FakeOkxBook;
  readonly requests: OkxRecordedRequest[] = [];
  clockSkewMs = 0;
  private readonly faults = new InjectedFaults<OkxFault>();
  private readonly routes: Map<string, Route>;
  private server: Server | undefined;
  /** Secret, passphrase and User ID of every key; each key is its own User ID, trading on the one book. */
  private readonly keys = new Map<string, { secret: string; passphrase: string; userId: string }>();
  /** Requests counted against OKX's limits (fake-okx-limits.ts), when the double enforces them. */
  readonly limits: RollingLimits;

  private constructor(
    readonly apiKey: string,
    readonly secret: string,
    readonly passphrase: string,
    private readonly enforceLimits: boolean,
  ) {
    this.book = new FakeOkxBook({ now: () => this.now() });
    this.routes = this.buildRoutes();
    this.limits = new RollingLimits(() => this.now());
    this.addKey(apiKey, secret, passphrase);
  }

  /**
   * `rateLimits`: answer 50011 as OKX does past an endpoint's limit (fake-okx-limits.ts). Off by default, so
   * tests of other rules may call as fast as they like.
   */
  static async start(
    options: { apiKey?: string; secret?: string; passphrase?: string; rateLimits?: boolean } = {},
  ): Promise<FakeOkxServer> {
    const fake = new FakeOkxServer(
      options.apiKey ?? 'okx-test-key',
      options.secret ?? 'okx-test-secret',
      options.passphrase ?? 'okx-test-passphrase',
      options.rateLimits ?? false,
    );
    fake.server = await listenLoopback(
      (req, res) => fake.handle(req, res),
      (res, error) => send(res, 500, { code: '50000', msg: String(error), data: [] }),
    );
    return fake;
  }

  get url(): string {
    return loopbackUrl(this.server);
  }

  now(): number {
    return Date.now() + this.clockSkewMs;
  }

  /** The market price of a port symbol: BTCUSDT spot is BTC-USDT, future BTC-USDT-SWAP. */
  setPrice(symbol: string, market: MarketKind, price: string): void {
    this.book.setPrice(okxInstId(symbol, market), price);
  }

  /** Another user's key: a User ID of its own (its own rate limits) on the same book. */
  addKey(apiKey: string, secret: string, passphrase: string): void {
    this.keys.set(apiKey, { secret, passphrase, userId: String(1000 + this.keys.size) });
  }

  /** Answers refused with 50011, over a limit or injected. */
  rateLimitAnswers(): OkxRecordedRequest[] {
    return this.requests.filter((r) => r.outcome === 'overLimit' || r.outcome === 'rateLimited');
  }

  /** The next `times` requests whose "METHOD /path" or path starts with `target` get `fault`. */
  inject(target: string, fault: OkxFault, times = 1): void {
    this.faults.inject(target, fault, times);
  }

  /** Whether a fault injected for `target` is still waiting for its request. */
  faultPending(target: string): boolean {
    return this.faults.pending(target);
  }

  /** Order placements that reached the server (executed or refused). */
  orderPosts(): OkxRecordedRequest[] {
    return this.requests.filter(
      (r) => r.method === 'POST' && r.path === '/api/v5/trade/order' && r.outcome !== 'resetBefore',
    );
  }

  async close(): Promise<void> {
    await closeLoopback(this.server, this.faults);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readLoopbackRequest(req, 'ok-access-key');
    const { url, rawBody, params, apiKey, target } = request;
    const record: OkxRecordedRequest = {
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
    const overLimit =
      this.enforceLimits && !withinOkxLimit(this.limits, this.keys.get(apiKey ?? '')?.userId, target, params);
    if (overLimit) record.outcome = 'overLimit';
    if (fault?.kind === 'rateLimited' || overLimit)
      return send(res, 429, {
        code: '50011',
        msg: 'Rate limit reached. Please refer to API documentation and throttle requests accordingly.',
        data: [],
      });
    const route = this.routes.get(target);
    if (!route) return send(res, 404, { code: '404', msg: 'Not Found', data: [] });
    const order = target === 'POST /api/v5/trade/order' || target === 'POST /api/v5/trade/cancel-order';
    try {
      if (route.signed) this.checkSigned(req, apiKey, `${url.pathname}${url.search}`, rawBody);
      const missing = route.required.find((name) => text(params[name]) === undefined);
      // [error-code] 50014 "Parameter {param0} can not be empty."
      if (missing) throw new OkxReject('50014', `Parameter ${missing} can not be empty.`, 400);
      const deadline = deadlineOf(req, target);
      // [error-code] 50036 "The expTime can't be earlier than the current system time. Please adjust the expTime
      // and try again." (HTTP 200): the request is not processed.
      if (deadline !== undefined && this.now() > deadline)
        throw new OkxReject(
          '50036',
          "The expTime can't be earlier than the current system time. Please adjust the expTime and try again.",
          200,
        );
      if (fault?.kind === 'lateOrder')
        return this.executeLate(route, params, fault, req, res, deadline ?? Number.POSITIVE_INFINITY);
      const data = route.handle(params);
      if (fault?.kind === 'executedThenDrop') return void req.socket.destroy();
      if (fault?.kind === 'executedThenError') return send(res, fault.status, 'Bad Gateway');
      send(res, 200, { code: '0', msg: '', data });
    } catch (error) {
      if (!(error instanceof OkxReject)) throw error;
      // [place-order] / [cancel-order] a refused order: code "1", msg "All operations failed", its sCode/sMsg.
      if (order && error.status === 200 && !error.code.startsWith('50'))
        return send(res, 200, {
          code: '1',
          msg: 'All operations failed',
          data: [
            {
              clOrdId: text(params.clOrdId) ?? '',
              ordId: '',
              tag: '',
              ts: String(this.now()),
              sCode: error.code,
              sMsg: error.msg,
            },
          ],
        });
      send(res, error.status, { code: error.code, msg: error.msg, data: [] });
    }
  }

  private executeLate(
    route: Route,
    params: Params,
    fault: LateOrderFault,
    req: IncomingMessage,
    res: ServerResponse,
    deadline: number,
  ): void {
    const timestamp = Date.parse(header(req, 'ok-access-timestamp') ?? '');
    const execute = () => {
      try {
        route.handle(params);
      } catch (error) {
        if (!(error instanceof OkxReject)) throw error;
      }
    };
    // Taken by the engine only while the request is valid: its timestamp's 30 s and its expTime, if it has one.
    const expiresAt = Math.min(timestamp + OKX_REQUEST_EXPIRY_MS, deadline);
    this.faults.lateOrder(fault, expiresAt, () => this.now(), execute, req, res);
  }

  /** [rest-auth] the checks of a private endpoint: key, passphrase, timestamp, signature. */
  private checkSigned(
    req: IncomingMessage,
    apiKey: string | undefined,
    requestPath: string,
    body: string,
  ): void {
    const key = this.keys.get(apiKey ?? '');
    if (!key) throw new OkxReject('50111', 'Invalid OK-ACCESS-KEY', 401);
    if (header(req, 'ok-access-passphrase') !== key.passphrase)
      throw new OkxReject('50105', 'Invalid OK-ACCESS-PASSPHRASE', 401);
    const stamp = header(req, 'ok-access-timestamp') ?? '';
    const timestamp = Date.parse(stamp);
    if (!Number.isFinite(timestamp) || this.now() - timestamp > OKX_REQUEST_EXPIRY_MS)
      throw new OkxReject('50102', 'Timestamp request expired', 401);
    const expected = createHmac('sha256', key.secret)
      .update(`${stamp}${req.method}${requestPath}${req.method === 'POST' ? body : ''}`)
      .digest('base64');
    const sign = header(req, 'ok-access-sign') ?? '';
    if (sign.length !== expected.length || !timingSafeEqual(Buffer.from(sign), Buffer.from(expected)))
      throw new OkxReject('50113', 'Invalid Sign', 401);
  }

  private buildRoutes(): Map<string, Route> {
    const book = this.book;
    const r = (signed: boolean, required: readonly string[], handle: (p: Params) => unknown[]): Route => ({
      signed,
      required,
      handle,
    });
    const ids = (p: Params) => ({
      ...(text(p.ordId) ? { ordId: String(p.ordId) } : {}),
      ...(text(p.clOrdId) ? { clOrdId: String(p.clOrdId) } : {}),
    });
    return new Map<string, Route>([
      // "Public Data → GET / System time".
      ['GET /api/v5/public/time', r(false, [], () => [{ ts: String(this.now()) }])],
      [
        'GET /api/v5/public/instruments',
        r(false, ['instType'], (p) => {
          const t = instTypeOf(p);
          return [...book.instruments.values()].filter((i) => i.instType === t).map(instrumentRow);
        }),
      ],
      [
        'GET /api/v5/market/ticker',
        r(false, ['instId'], (p) => [tickerRow(book, book.instrument(String(p.instId)).instId)]),
      ],
      ['GET /api/v5/account/config', r(true, [], () => [configRow(book)])],
      [
        'GET /api/v5/account/balance',
        r(true, [], (p) => [balanceRow(book, text(p.ccy)?.split(','), this.now())]),
      ],
      [
        // [positions] instId "Single instrument ID or multiple instrument IDs (no more than 10)"; held only.
        'GET /api/v5/account/positions',
        r(true, [], (p) => {
          const t = instTypeOf(p);
          if (t === 'SPOT') return [];
          const wanted = text(p.instId)?.split(',');
          return [...book.positions.keys()]
            .filter((id) => !wanted || wanted.includes(id))
            .map((id) => positionRow(book, id, this.now()))
            .filter((row) => row !== undefined);
        }),
      ],
      [
        // [positions-history] closed positions, newest first; `type` filters the kind of close.
        'GET /api/v5/account/positions-history',
        r(true, [], (p) =>
          book.closedPositions
            .filter(
              (c) =>
                (!text(p.instId) || c.instId === p.instId) && (!text(p.type) || c.type === String(p.type)),
            )
            .reverse()
            .map((c) => ({
              instType: 'SWAP',
              instId: c.instId,
              mgnMode: 'isolated',
              type: c.type,
              cTime: String(c.uTime),
              uTime: String(c.uTime),
              openAvgPx: c.openAvgPx.toFixed(),
              closeAvgPx: c.closeAvgPx.toFixed(),
              posId: `p-${c.instId}`,
              openMaxPos: c.closeTotalPos.toFixed(),
              closeTotalPos: c.closeTotalPos.toFixed(),
              realizedPnl: c.realizedPnl.toFixed(),
              pnl: c.realizedPnl.toFixed(),
              fee: c.fee.toFixed(),
              fundingFee: '0',
              liqPenalty: '0',
              direction: c.direction,
              posSide: 'net',
              lever: '',
              ccy: 'USDT',
              uly: '',
            })),
        ),
      ],
      [
        // "Trading Account → GET / Leverage": the isolated leverage of an instrument.
        'GET /api/v5/account/leverage-info',
        r(true, ['instId', 'mgnMode'], (p) => {
          const inst = book.instrument(String(p.instId));
          return [
            {
              instId: inst.instId,
              mgnMode: String(p.mgnMode),
              posSide: 'net',
              lever: String(book.leverageOf(inst.instId)),
            },
          ];
        }),
      ],
      [
        'POST /api/v5/account/set-position-mode',
        r(true, ['posMode'], (p) => {
          book.setPosMode(String(p.posMode));
          return [{ posMode: book.posMode }];
        }),
      ],
      ['POST /api/v5/account/set-leverage', r(true, ['lever', 'mgnMode'], (p) => [book.setLeverage(p)])],
      [
        'POST /api/v5/trade/order',
        r(true, ['instId', 'tdMode', 'side', 'ordType', 'sz'], (p) => {
          const o = book.place(p);
          return [
            {
              clOrdId: o.clOrdId,
              ordId: o.ordId,
              tag: '',
              ts: String(this.now()),
              sCode: '0',
              sMsg: 'Order placed',
            },
          ];
        }),
      ],
      [
        // [order-details] an unknown order is [error-code] 51603 "Order does not exist".
        'GET /api/v5/trade/order',
        r(true, ['instId'], (p) => {
          const q = ids(p);
          if (!q.ordId && !q.clOrdId)
            throw new OkxReject('51003', 'Either client order ID or order ID is required.');
          const o = book.find(book.instrument(String(p.instId)).instId, q);
          if (!o) throw new OkxReject('51603', 'Order does not exist');
          return [orderRow(o)];
        }),
      ],
      [
        'POST /api/v5/trade/cancel-order',
        r(true, ['instId'], (p) => {
          const o = book.cancel(book.instrument(String(p.instId)).instId, ids(p));
          return [{ clOrdId: o.clOrdId, ordId: o.ordId, ts: String(this.now()), sCode: '0', sMsg: '' }];
        }),
      ],
      [
        // [orders-pending] limit "The maximum is 100; The default is 100"; after: "Pagination of data to
        // return records earlier than the requested ordId".
        'GET /api/v5/trade/orders-pending',
        r(true, [], (p) => {
          let rows = book.pending(instTypeOf(p), text(p.instId));
          const after = text(p.after);
          if (after) rows = rows.filter((o) => BigInt(o.ordId) < BigInt(after));
          const limit = Math.min(100, Math.max(1, Number(p.limit ?? 100)));
          return rows.slice(0, limit).map(orderRow);
        }),
      ],
      [
        // [fills] newest first; limit "The maximum is 100; The default is 100".
        'GET /api/v5/trade/fills',
        r(true, [], (p) => {
          const t = instTypeOf(p);
          const limit = Math.min(100, Math.max(1, Number(p.limit ?? 100)));
          return book.fills
            .filter(
              (f) =>
                (!t || f.inst.instType === t) &&
                (!text(p.instId) || f.inst.instId === p.instId) &&
                (!text(p.ordId) || f.ordId === p.ordId),
            )
            .reverse()
            .slice(0, limit)
            .map((f) => fillRow(f, !book.fillsWithoutFeeCcy));
        }),
      ],
    ]);
  }
}

/** OKX's instrument id of a port symbol: BTCUSDT → BTC-USDT (spot), BTC-USDT-SWAP (future). */
export function okxInstId(symbol: string, market: MarketKind): string {
  const base = symbol.toUpperCase().replace(/USDT$/, '');
  return market === 'spot' ? `${base}-USDT` : `${base}-USDT-SWAP`;
}
