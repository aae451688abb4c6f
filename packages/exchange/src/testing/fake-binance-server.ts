import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findMarketRules, type MarketKind, SYMBOLS } from '@gridbot/shared';
import { ExchangeError } from '../exchange-error';
import type { Exchange, Order } from '../exchange-port';
import { MemoryPaperStore } from '../paper/memory-paper-store';
import { PaperExchange } from '../paper/paper-exchange';
import { binanceRoutes, type FakeRoute } from './fake-binance-routes';
import { ManualFeed } from './manual-feed';

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  apiKey: string | undefined;
}

interface Failure {
  path: string;
  status: number;
  body: unknown;
  remaining: number;
}

/** Binance's error body with the HTTP status Binance uses for it. */
function errorBody(res: ServerResponse, status: number, code: number, msg: string): void {
  send(res, status, { code, msg });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
  res.end(JSON.stringify(body));
}

/**
 * A loopback server that speaks Binance's REST API for the endpoints the adapter uses (spot /api/v3,
 * /sapi/v1/asset/transfer, USDT-M /fapi). It checks the API key, the HMAC-SHA256 signature over the
 * exact query and body, the timestamp against its own clock and each endpoint's mandatory parameters.
 * Trading behind it is a `PaperExchange` on a `ManualFeed`, so fills follow the same rules as paper.
 * Failures can be injected (`failNext`) and its clock skewed (`clockSkewMs`).
 */
export class FakeBinanceServer {
  readonly feed = new ManualFeed();
  readonly paper: PaperExchange;
  readonly account: Exchange;
  readonly requests: RecordedRequest[] = [];
  /** Added to the server's clock: a large value makes every signed request fail with -1021. */
  clockSkewMs = 0;
  readonly orderIds = new Map<string, number>();
  readonly marginTypes = new Set<string>();
  /** Futures orders as last shown, by numeric id (for /fapi/v1/userTrades). */
  readonly futuresOrders = new Map<number, Order>();
  private readonly failures: Failure[] = [];
  private readonly routes: Map<string, FakeRoute>;
  private server: Server | undefined;

  private constructor(
    readonly apiKey: string,
    readonly secret: string,
  ) {
    this.paper = new PaperExchange({ store: new MemoryPaperStore(), feed: this.feed });
    this.account = this.paper.forUser('binance-account');
    for (const symbol of SYMBOLS) {
      this.feed.setPrice(symbol, 'spot', '1');
      this.feed.setPrice(symbol, 'future', '1');
    }
    this.routes = binanceRoutes(this);
  }

  /** Starts on 127.0.0.1 at a random free port. */
  static async start(options: { apiKey?: string; secret?: string } = {}): Promise<FakeBinanceServer> {
    const fake = new FakeBinanceServer(options.apiKey ?? 'test-api-key', options.secret ?? 'test-secret');
    await fake.paper.start();
    fake.server = createServer((req, res) => {
      fake.handle(req, res).catch((error: unknown) => errorBody(res, 500, -1000, String(error)));
    });
    await new Promise<void>((resolve) => fake.server!.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  now(): number {
    return Date.now() + this.clockSkewMs;
  }

  /** Numeric order id Binance would show for one of our orders. */
  orderId(exchangeOrderId: string): number {
    let id = this.orderIds.get(exchangeOrderId);
    if (id === undefined) {
      id = 1000 + this.orderIds.size;
      this.orderIds.set(exchangeOrderId, id);
    }
    return id;
  }

  /**
   * The next `times` requests whose path starts with `path` get this status and body. `path` may
   * name the method first: 'POST /api/v3/order'.
   */
  failNext(path: string, status: number, body: unknown, times = 1): void {
    this.failures.push({ path, status, body, remaining: times });
  }

  setPrice(symbol: string, market: MarketKind, price: string): void {
    this.feed.setPrice(symbol, market, price);
  }

  rules(symbol: string | undefined, market: MarketKind) {
    const rules = symbol ? findMarketRules(symbol, market) : undefined;
    if (!rules) throw new ExchangeError('rejected', -1121, 'Invalid symbol.');
    return rules;
  }

  async close(): Promise<void> {
    await this.paper.stop();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rawQuery = url.search.startsWith('?') ? url.search.slice(1) : '';
    const rawBody = await readBody(req);
    const params: Record<string, string> = {};
    for (const [k, v] of new URLSearchParams(rawQuery)) params[k] = v;
    for (const [k, v] of new URLSearchParams(rawBody)) params[k] = v;
    const apiKey = header(req, 'x-mbx-apikey');
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, params, apiKey });

    const target = `${req.method} ${url.pathname}`;
    const failure = this.failures.find(
      (f) => f.remaining > 0 && (url.pathname.startsWith(f.path) || target.startsWith(f.path)),
    );
    if (failure) {
      failure.remaining -= 1;
      return send(res, failure.status, failure.body);
    }
    const route = this.routes.get(`${req.method} ${url.pathname}`);
    if (!route) return errorBody(res, 404, -1000, `No fake for ${req.method} ${url.pathname}`);
    if (route.signed) {
      const problem = this.checkSigned(apiKey, rawQuery, rawBody, params);
      if (problem) return errorBody(res, problem.status, problem.code, problem.msg);
    }
    const missing = route.required.find((name) => params[name] === undefined || params[name] === '');
    if (missing) {
      return errorBody(
        res,
        400,
        -1102,
        `Mandatory parameter '${missing}' was not sent, was empty/null, or malformed.`,
      );
    }
    try {
      send(res, 200, await route.handle(params));
    } catch (error) {
      if (error instanceof ExchangeError) return errorBody(res, 400, error.code, error.userMessage);
      throw error;
    }
  }

  /** Binance's checks of a SIGNED endpoint, in its order: key, timestamp, signature. */
  private checkSigned(
    apiKey: string | undefined,
    rawQuery: string,
    rawBody: string,
    params: Record<string, string>,
  ) {
    if (apiKey !== this.apiKey) {
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
    const expected = createHmac('sha256', this.secret).update(payload).digest('hex');
    const ok =
      signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
    return ok ? undefined : { status: 400, code: -1022, msg: 'Signature for this request is not valid.' };
  }
}

/** totalParams = query string + body, each without its `signature` parameter (Binance SIGNED rules). */
function stripSignature(raw: string): string {
  return raw.replace(/&?signature=[0-9a-fA-F]*$/, '');
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
