import type { Db, Tx } from '@gridbot/db';
import {
  type SecurityEventType,
  type SecurityLogEntry,
  type SecurityLogPage,
  securityEventLabels,
} from '@gridbot/shared';
import { insertSecurityEvent, securityEventsPage } from './security-log.repo';

export const SECURITY_LOG_PAGE_SIZE = 20;

export interface SecurityEventInput {
  userId: string;
  type: SecurityEventType;
  ip?: string | null;
  /** What the owner needs to recognise the event: never a secret (no key, no code, no password). */
  detail?: Record<string, string>;
}

/**
 * Adds an entry to the user's security log. Inside `tx` it commits with the change it describes; the
 * kinds that warrant an e-mail become notification events by trigger in the same transaction.
 */
export async function recordSecurityEvent(db: Db | Tx, event: SecurityEventInput): Promise<void> {
  await insertSecurityEvent(db, {
    userId: event.userId,
    type: event.type,
    ip: event.ip ?? null,
    detail: event.detail ?? {},
  });
}

/** The short line shown beside an entry: device, key prefix, amount, whichever the entry carries. */
function detailOf(detail: Record<string, unknown>): string | null {
  const parts = ['device', 'apiKey', 'amount', 'reason']
    .map((key) => detail[key])
    .filter((value): value is string => typeof value === 'string' && value.length > 0);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** The user's security log, newest first, one page. */
export async function securityLogPage(db: Db, userId: string, page: number): Promise<SecurityLogPage> {
  const { rows, total } = await securityEventsPage(
    db,
    userId,
    (page - 1) * SECURITY_LOG_PAGE_SIZE,
    SECURITY_LOG_PAGE_SIZE,
  );
  const items: SecurityLogEntry[] = rows.map((row) => ({
    id: String(row.id),
    type: row.type as SecurityEventType,
    label: securityEventLabels[row.type as SecurityEventType] ?? row.type,
    ip: row.ip,
    detail: detailOf(row.detail),
    createdAt: row.createdAt.toISOString(),
  }));
  return { items, page, pageSize: SECURITY_LOG_PAGE_SIZE, total };
}

/** The first characters of an API key: enough for its owner to recognise it, useless to anyone else. */
export const keyHint = (apiKey: string) => `${apiKey.slice(0, 6)}…`;
