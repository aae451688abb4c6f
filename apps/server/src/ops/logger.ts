import { pino } from 'pino';
import type { Env } from '../config/env';

/**
 * Structured JSON logs (one object per line) for the processes without an HTTP server of their own, and
 * the log function the bot runtime takes: its `extra` carries `botId`, so every line of a bot is findable.
 */
export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'ROLE'>, base: Record<string, string> = {}) {
  const logger = pino({ level: env.LOG_LEVEL, base: { role: env.ROLE, pid: process.pid, ...base } });
  const log = (message: string, extra?: Record<string, unknown>) => logger.warn(extra ?? {}, message);
  return { logger, log };
}

/** Fastify's logger options: pino JSON with the role; Fastify adds the request id (reqId) to each line. */
export function fastifyLoggerOptions(
  env: Pick<Env, 'LOG_LEVEL' | 'ROLE'>,
  base: Record<string, string> = {},
) {
  return { level: env.LOG_LEVEL, base: { role: env.ROLE, pid: process.pid, ...base } };
}
