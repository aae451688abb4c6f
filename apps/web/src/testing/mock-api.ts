import type { SessionUser } from '@gridbot/shared';
import { vi } from 'vitest';

export const testUser: SessionUser = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'alice@example.com',
  username: 'alice',
  contactNo: '4915112345678',
  userCode: 'ALICE1',
  role: 'user',
  usdtRewardToken: '0',
};

export interface RecordedCall {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
}

type Reply = Response | Promise<Response>;
type Handler = (call: RecordedCall) => Reply;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Answers the shell's background calls so screen tests only describe what they are about. */
const defaults: Record<string, Handler> = {
  'GET /api/tickers': () =>
    json({ source: 'static', tickers: [{ symbol: 'BTCUSDT', price: 97000, changePct: 1.5 }] }),
  'GET /api/me': () => json({ user: testUser }),
  'GET /api/email': () => json({ email: testUser.email, username: testUser.username }),
  'GET /api/disclaimeragreementcheck': () => json({ agreed: true }),
  'GET /api/notifications': () => json({ unread: 0, items: [] }),
};

/**
 * Replaces fetch with a route table keyed 'METHOD /path'. Unknown routes answer 404 so a missing mock
 * shows up as a failing screen, not a hang. Returns the recorded calls.
 */
export function mockApi(handlers: Record<string, Handler> = {}) {
  const calls: RecordedCall[] = [];
  const table = { ...defaults, ...handlers };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    const method = (init?.method ?? 'GET').toUpperCase();
    // Header names as the Fetch standard iterates them, in lower case (happy-dom keeps the case they were set in).
    const headers = Object.fromEntries(
      [...new Headers(init?.headers).entries()].map(([name, value]) => [name.toLowerCase(), value]),
    );
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), body, headers };
    calls.push(call);
    const handler = table[`${method} ${url.pathname}`];
    return handler ? handler(call) : json({ message: `Not mocked: ${method} ${url.pathname}` }, 404);
  });
  return {
    calls,
    callsTo: (method: string, path: string) =>
      calls.filter((call) => call.method === method && call.path === path),
  };
}

/** A response that arrives when the test says so. */
export function deferred() {
  let resolve!: (response: Response) => void;
  const promise = new Promise<Response>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
