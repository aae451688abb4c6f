import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/http-error';

const GENERIC_500 = 'Something went wrong. Please try again.';
export const UNSTORABLE_VALUE = 'The request contains a value that cannot be stored.';

/** Routes whose inputs are passwords, codes, reset tokens or exchange keys: their errors are logged bare. */
const SECRET_ROUTE =
  /^\/(api|platform)\/(signup|verify-otp|resend-otp|cyborxlogin|logout|forgot-password|reset-password|apikeys|fetchkeys|checkConnection|admin\/withdrawals)/i;

/** The SQLSTATE of a database error, wherever the query builder wrapped it. */
function sqlStateOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * What the log may hold of an unexpected error. A failed query's message ends with its parameters (login ids,
 * password hashes, sealed secrets), so it is cut there; on secret routes only the error's kind is kept.
 */
export function loggableError(error: unknown, request: Pick<FastifyRequest, 'url'>) {
  const e = error as { name?: string; message?: string; stack?: string; cause?: unknown };
  const kind = { type: e?.name ?? typeof error, code: sqlStateOf(error) };
  if (SECRET_ROUTE.test(request.url)) return kind;
  const strip = (text: string | undefined) => text?.split('\nparams:')[0];
  const cause = e?.cause as { message?: string } | undefined;
  return { ...kind, message: strip(e?.message), stack: strip(e?.stack), cause: strip(cause?.message) };
}

/**
 * One error handler builds the docs/architecture.md §4 envelope `{ message }`: 400 with the schema's own message for bad
 * input, the HttpError's status and message for expected failures, and a generic 500 whose details go only
 * to the log.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((v) => ({
        path: String(v.instancePath ?? '')
          .replace(/^\//, '')
          .replaceAll('/', '.'),
        message: v.message ?? 'Invalid value.',
      }));
      return reply.status(400).send({ message: errors[0]?.message ?? 'Invalid request.', errors });
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ message: error.message, ...error.extra });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, wrong content type, body too large…
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'The request body is not valid JSON.'
          : error.message;
      return reply.status(status).send({ message });
    }
    // SQLSTATE class 22 (data exception: a character or number the column cannot hold) comes from input.
    if (sqlStateOf(error)?.startsWith('22')) {
      request.log.warn({ err: loggableError(error, request) }, 'value refused by the database');
      return reply.status(400).send({ message: UNSTORABLE_VALUE });
    }
    request.log.error(
      { err: loggableError(error, request), route: request.routeOptions.url },
      'unhandled error',
    );
    return reply.status(500).send({ message: GENERIC_500 });
  });
}
