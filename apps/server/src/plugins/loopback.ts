import type { FastifyRequest } from 'fastify';
import { notFound } from '../lib/http-error';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * Whether a request comes from this machine itself. It reads the socket, not `request.ip` (which follows a
 * trusted X-Forwarded-For), and refuses forwarded requests: a reverse proxy on the same machine connects
 * from 127.0.0.1 for every caller of the internet.
 */
export function isLoopbackRequest(request: FastifyRequest): boolean {
  const forwarded =
    request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !forwarded && LOOPBACK.test(request.socket.remoteAddress ?? '');
}

/** An onRequest hook: 404 for any caller that is not on this machine (the route does not admit it exists). */
export async function loopbackOnly(request: FastifyRequest): Promise<void> {
  if (!isLoopbackRequest(request)) throw notFound();
}
