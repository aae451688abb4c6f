import type { FastifyInstance } from 'fastify';
import { HttpError } from '../lib/http-error';

/** PostgreSQL stores no U+0000 in text or jsonb; refused before any handler sees it. */
export const NUL_MESSAGE = 'The request contains a NUL character, which is not allowed.';

const MAX_DEPTH = 64;

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => hasNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1));
}

/**
 * 400 with a message for a NUL anywhere in the body, query or path parameters, before validation: the
 * database would refuse it with an error that surfaced as a 500.
 */
export function registerRequestGuards(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (
      request.url.includes('%00') ||
      hasNul(request.body) ||
      hasNul(request.query) ||
      hasNul(request.params)
    )
      throw new HttpError(400, NUL_MESSAGE);
  });
}
