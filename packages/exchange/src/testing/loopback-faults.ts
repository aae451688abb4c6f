/**
 * What the loopback exchange doubles of Bybit and OKX share around their routes: listening, reading a request
 * into its parameters, recording it, and the faults a test injects for it. Each double keeps the rules of its
 * exchange (signing, envelopes, which faults exist and how they answer).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { header, readBody, send } from './loopback-http';

/** One request that reached a double, and what it met. */
export interface LoopbackRecordedRequest<Kind extends string> {
  method: string;
  path: string;
  params: Record<string, unknown>;
  apiKey: string | undefined;
  outcome: 'answered' | Kind;
}

/** A request as read: its query and JSON body merged into `params`; `target` is "METHOD /path". */
export interface LoopbackRequest {
  url: URL;
  rawQuery: string;
  rawBody: string;
  params: Record<string, unknown>;
  apiKey: string | undefined;
  target: string;
}

/** Reads a request; the API key comes from the exchange's own header. */
export async function readLoopbackRequest(
  req: IncomingMessage,
  apiKeyHeader: string,
): Promise<LoopbackRequest> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const rawQuery = url.search.startsWith('?') ? url.search.slice(1) : '';
  const rawBody = await readBody(req);
  const params: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(rawQuery)) params[k] = v;
  if (req.method === 'POST' && rawBody) Object.assign(params, JSON.parse(rawBody) as Record<string, unknown>);
  return {
    url,
    rawQuery,
    rawBody,
    params,
    apiKey: header(req, apiKeyHeader),
    target: `${req.method} ${url.pathname}`,
  };
}

/** An order taken after its answer was lost: answered with a 5xx (`'error'`) or not at all (`'drop'`). */
export interface LateOrderFault {
  kind: 'lateOrder';
  answer: 'error' | 'drop';
  delayMs: number;
}

/** The faults waiting for requests, and the late orders still to be taken. */
export class InjectedFaults<Fault extends { kind: string }> {
  private readonly injections: { target: string; fault: Fault; remaining: number }[] = [];
  private readonly late = new Set<NodeJS.Timeout>();

  /** The next `times` requests whose "METHOD /path" or path starts with `target` get `fault`. */
  inject(target: string, fault: Fault, times: number): void {
    this.injections.push({ target, fault, remaining: times });
  }

  /** Whether a fault injected for `target` is still waiting for its request. */
  pending(target: string): boolean {
    return this.injections.some((f) => f.target === target && f.remaining > 0);
  }

  /**
   * Takes the fault of a request, if one waits for it, and records it as the request's outcome (a record whose
   * outcomes also name the double's own refusals, such as its rate limits).
   */
  take<Kind extends string>(
    request: LoopbackRequest,
    record: LoopbackRecordedRequest<Fault['kind'] | Kind>,
  ): Fault | undefined {
    const { url, target } = request;
    const injection = this.injections.find(
      (f) => f.remaining > 0 && (url.pathname.startsWith(f.target) || target.startsWith(f.target)),
    );
    if (!injection) return undefined;
    injection.remaining -= 1;
    record.outcome = injection.fault.kind;
    return injection.fault;
  }

  /**
   * Answers a late order as the fault says and runs `execute` `delayMs` later, but only while the request is
   * still valid on the double's clock (`now() <= expiresAt`): an exchange does not process a request that
   * reaches its engine past the request's window, so one delayed beyond it never executes.
   */
  lateOrder(
    fault: LateOrderFault,
    expiresAt: number,
    now: () => number,
    execute: () => void,
    req: IncomingMessage,
    res: ServerResponse,
  ): void {
    const timer = setTimeout(() => {
      this.late.delete(timer);
      if (now() > expiresAt) return;
      execute();
    }, fault.delayMs);
    this.late.add(timer);
    if (fault.answer === 'drop') return void req.socket.destroy();
    send(res, 502, 'Bad Gateway');
  }

  /** Drops the late orders not yet taken. */
  clear(): void {
    for (const timer of this.late) clearTimeout(timer);
  }
}

/** A double listening on a free loopback port; `fail` answers a request whose handling threw. */
export async function listenLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  fail: (res: ServerResponse, error: unknown) => void,
): Promise<Server> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => fail(res, error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

export function loopbackUrl(server: Server | undefined): string {
  const address = server?.address() as AddressInfo;
  return `http://127.0.0.1:${address.port}`;
}

/** Closes the double with its open connections, and drops its late orders. */
export async function closeLoopback(server: Server | undefined, faults: InjectedFaults<{ kind: string }>) {
  faults.clear();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
}
