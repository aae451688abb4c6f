import { PLATFORM_OK, PLATFORM_PAGE_SIZE } from '@gridbot/shared';
import { api, isApiError, NO_RESPONSE_MESSAGE } from '../../../lib/api-client';

const FALLBACK = 'Something went wrong. Please try again.';

/** A platform answer whose code is not '0000' (or a failed request); `message` is the server's msg/error. */
export class PlatformError extends Error {
  readonly code: string | null;
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;

  constructor(message: string, code: string | null, status: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'PlatformError';
    this.code = code;
    this.status = status;
  }
}

export function isPlatformError(error: unknown): error is PlatformError {
  return error instanceof PlatformError;
}

interface Envelope<T> {
  code?: unknown;
  data?: T;
  msg?: unknown;
  error?: unknown;
}

function textOf(body: Record<string, unknown> | Envelope<unknown> | null | undefined): string | null {
  for (const key of ['msg', 'error', 'message'] as const) {
    const value = (body as Record<string, unknown> | null | undefined)?.[key];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return null;
}

/**
 * POST to a platform path (`platformApiPaths`). docs/architecture.md §4: answers are `{ code: '0000', data, msg }`; any other code, and any failed
 * request, becomes a `PlatformError` carrying the server's msg (or error) so screens can toast it (docs/spec/02-bots-wallet-account.md §8).
 */
export async function platformCall<T>(
  path: string,
  body: unknown = {},
  signal?: AbortSignal,
): Promise<{ data: T; msg: string | null }> {
  let envelope: Envelope<T> | null;
  try {
    envelope = await api.post<Envelope<T> | null>(path, body, { signal });
  } catch (error) {
    if (!isApiError(error)) throw error;
    const code = typeof error.body?.code === 'string' ? error.body.code : null;
    const message = error.status === 0 ? NO_RESPONSE_MESSAGE : (textOf(error.body) ?? FALLBACK);
    throw new PlatformError(message, code, error.status, error);
  }
  if (envelope?.code !== PLATFORM_OK) {
    const code = typeof envelope?.code === 'string' ? envelope.code : null;
    throw new PlatformError(textOf(envelope) ?? FALLBACK, code, 200);
  }
  return { data: envelope.data as T, msg: textOf(envelope) };
}

/** `platformCall` for reads: just the data. */
export async function platformPost<T>(path: string, body: unknown = {}, signal?: AbortSignal): Promise<T> {
  return (await platformCall<T>(path, body, signal)).data;
}

/** Lists send `{ filters, limit: 10, page }` (docs/spec/02-bots-wallet-account.md §7) and answer `{ records, current, pages }`. */
export function listBody(page: number, filters: Record<string, unknown> = {}) {
  return { filters, limit: PLATFORM_PAGE_SIZE, page };
}

/** The server's words, or `fallback` for errors that carry none. */
export function platformErrorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/** docs/spec/01-core-screens.md Referral program: row numbers continue across pages. */
export function rowNumber(page: number, index: number): number {
  return PLATFORM_PAGE_SIZE * (page - 1) + index + 1;
}
