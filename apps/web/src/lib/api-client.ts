import type { ApiErrorBody } from '@gridbot/shared';
import { nextTask } from './next-task';
import { currentPath, loginPathFor } from './redirect';
import { clearSession, getToken } from './session';

/** Shown when the request never got an answer (network down, server unreachable). */
export const NO_RESPONSE_MESSAGE = 'No response from server. Please try again.';
const UNEXPECTED_MESSAGE = 'Something went wrong. Please try again.';

/** A failed main-API call: `status` 0 means no response reached us. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: ApiErrorBody['errors'];
  /** The parsed body: some errors carry extra fields (e.g. `retryAfterSeconds` on a 429). */
  readonly body: Record<string, unknown> | null;
  /** True when `message` is the server's own words (not our fallback). */
  readonly fromServer: boolean;

  constructor(status: number, message: string, body: Record<string, unknown> | null = null, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.errors = Array.isArray(body?.errors) ? (body.errors as ApiErrorBody['errors']) : undefined;
    this.fromServer = typeof body?.message === 'string' && body.message === message;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The server's message of a failed call, or `fallback` when the server said nothing (docs/spec/01-core-screens.md §8). */
export function errorMessage(error: unknown, fallback: string): string {
  return isApiError(error) && error.fromServer ? error.message : fallback;
}

type UnauthorizedHandler = (loginPath: string) => void;
let unauthorizedHandler: UnauthorizedHandler = (loginPath) => window.location.assign(loginPath);

/** The app installs a router-aware handler; the default reloads the page at the login path. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  unauthorizedHandler = handler;
}

/**
 * docs/spec/01-core-screens.md §4: any 401 from the main API while the page is not '/' removes the token and the user data and
 * sends the user to the login page; we keep where they were in `redirect` so they come back after login.
 */
function handleUnauthorized(): void {
  // Whatever the page, a 401 means the stored session is over: its token and user data go (on '/' too,
  // where no redirect is needed, so no stale user entry outlives its token).
  clearSession();
  if (window.location.pathname === '/') return;
  unauthorizedHandler(loginPathFor(currentPath()));
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Overrides the stored token (logout sends the token it is about to forget). */
  token?: string | null;
  /** 'throw' leaves a 401 to the caller instead of the global handling (logout). */
  on401?: 'redirect' | 'throw';
}

async function readBody(response: Response): Promise<Record<string, unknown> | null> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : { value: parsed };
  } catch {
    return null;
  }
}

/** Calls the main API on this origin and returns the parsed JSON body; throws `ApiError` otherwise. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, signal, on401 = 'redirect' } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  // Only with a body: Fastify rejects an empty body that claims to be JSON.
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = options.token === undefined ? getToken() : options.token;
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    // Each request starts in a task of its own, not all in the effects of the commit that asked for them: a
    // screen's first commit subscribes all its queries at once, and each `fetch()` costs the main thread
    // milliseconds to start (docs/benchmarks.md, Web).
    await nextTask();
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, NO_RESPONSE_MESSAGE, null, error);
  }

  const data = await readBody(response);
  if (!response.ok) {
    // Only when the session that sent the request is still the current one: a late 401 for a token that
    // was logged out (or replaced by a new login) meanwhile must not end anything.
    if (response.status === 401 && on401 === 'redirect' && getToken() === token) handleUnauthorized();
    const message = typeof data?.message === 'string' && data.message ? data.message : UNEXPECTED_MESSAGE;
    throw new ApiError(response.status, message, data);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
};
