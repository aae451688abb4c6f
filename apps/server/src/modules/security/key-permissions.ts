import type { Db } from '@gridbot/db';
import type { ApiKeyPermissions } from '@gridbot/exchange';
import { type KeyPermissions, securityMessages as m } from '@gridbot/shared';
import type { SecretBox } from '../../lib/secret-box';
import { hasFuturesBots } from '../bots';
import type { ExchangeGateway, UserKeys } from '../exchange';
import { findApiKeys, findStoredPermissions, storePermissions } from '../exchange';

/** What a key check needs of the app. */
export interface KeyCheckDeps {
  db: Db;
  exchanges: ExchangeGateway;
  secrets: SecretBox;
  now: () => Date;
}

/**
 * Why the platform must not trade with a key, if it must not: a key that can withdraw is what a leak turns
 * into stolen funds; without spot trading (or futures, for futures bots) no order can go out.
 */
export function refusalOf(permissions: ApiKeyPermissions, needsFutures: boolean): string | undefined {
  if (permissions.enableWithdrawals) return m.withdrawalsEnabled;
  if (!permissions.enableSpotAndMarginTrading) return m.spotTradingMissing;
  if (needsFutures && !permissions.enableFutures) return m.futuresMissing;
  return undefined;
}

export const toKeyPermissions = (p: ApiKeyPermissions, checkedAt: Date): KeyPermissions => ({
  ipRestricted: p.ipRestrict,
  enableReading: p.enableReading,
  enableSpotAndMarginTrading: p.enableSpotAndMarginTrading,
  enableFutures: p.enableFutures,
  enableWithdrawals: p.enableWithdrawals,
  checkedAt: checkedAt.toISOString(),
});

/** The stored permissions of the user's key, as API Setting shows them; null before any check (or on paper). */
export async function storedPermissions(db: Db, userId: string): Promise<KeyPermissions | null> {
  const row = await findStoredPermissions(db, userId);
  if (!row?.permissions || !row.at) return null;
  return toKeyPermissions(row.permissions as unknown as ApiKeyPermissions, row.at);
}

/**
 * Reads a key's rights before it is saved. Answers them (undefined on the paper exchange) or the refusal.
 */
export async function inspectKey(
  deps: KeyCheckDeps,
  userId: string,
  keys: UserKeys,
): Promise<{ permissions?: ApiKeyPermissions; refusal?: string }> {
  if (!deps.exchanges.keyPermissions) return {};
  const permissions = await deps.exchanges.keyPermissions(keys);
  const refusal = refusalOf(permissions, await hasFuturesBots(deps.db, userId));
  return { permissions, ...(refusal ? { refusal } : {}) };
}

/** Pauses every running bot and cycle of a user with a reason (the worker's supervisor does it). */
export type HaltUserBots = (userId: string, reason: string) => Promise<void>;

/**
 * Reads the saved key's rights again, stores them, and pauses the user's bots with the reason when the key
 * lost one it needs. Answers the refusal, if any. A key Binance no longer accepts at all is the runtime's
 * (its orders fail with -2015 and the bot halts).
 */
export async function recheckKey(deps: KeyCheckDeps, userId: string, halt: HaltUserBots) {
  const row = await findApiKeys(deps.db, userId);
  if (!row || !deps.exchanges.keyPermissions) return undefined;
  const keys = { apiKey: row.apiKey, secret: deps.secrets.open(row.secretSealed), exchange: row.exchange };
  const { permissions, refusal } = await inspectKey(deps, userId, keys);
  if (permissions) await storePermissions(deps.db, userId, permissions, deps.now());
  if (refusal) await halt(userId, m.keyLostRights(refusal));
  return refusal;
}
