import {
  platformMessages as m,
  PLATFORM_ERROR_CODES,
  PLATFORM_OK,
  type PlatformFailure,
  type PlatformSuccess,
} from '@gridbot/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../../lib/http-error';

/** A platform success (docs/architecture.md §4): `{ code: '0000', data, msg }`. */
export function ok<T>(data: T, msg = 'success'): PlatformSuccess<T> {
  return { code: PLATFORM_OK, data, msg };
}

function failure(code: string, msg: string): PlatformFailure {
  return { code, msg, error: msg, data: null };
}

const codeOfStatus = (status: number): string =>
  status === 401
    ? PLATFORM_ERROR_CODES.unauthorized
    : status === 404
      ? PLATFORM_ERROR_CODES.notFound
      : status === 409
        ? PLATFORM_ERROR_CODES.conflict
        : status === 503
          ? PLATFORM_ERROR_CODES.notConfigured
          : status >= 500
            ? PLATFORM_ERROR_CODES.serverError
            : PLATFORM_ERROR_CODES.badRequest;

/**
 * The platform scope answers every failure in its envelope: a code other than '0000' with `msg` and
 * `error` (docs/spec/02-bots-wallet-account.md §8 shows either). The HTTP status stays meaningful (400, 401, 404, 409, 503, 500).
 */
export function registerPlatformErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const msg = error.validation[0]?.message ?? 'Invalid request.';
      return reply.status(400).send(failure(PLATFORM_ERROR_CODES.badRequest, msg));
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send(failure(codeOfStatus(error.statusCode), error.message));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const msg =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'The request body is not valid JSON.'
          : error.message;
      return reply.status(status).send(failure(codeOfStatus(status), msg));
    }
    request.log.error({ err: error }, 'unhandled platform error');
    return reply.status(500).send(failure(PLATFORM_ERROR_CODES.serverError, m.serverError));
  });
}
