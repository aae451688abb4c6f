import { walletMessages } from '@gridbot/shared';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import type { UserKeys } from '../exchange/exchange-gateway';
import { findApiKeys } from './api-keys.repo';

/** The user's bound keys, opened; undefined when none are saved. */
export async function loadUserKeys(deps: AppDeps, userId: string): Promise<UserKeys | undefined> {
  const row = await findApiKeys(deps.db, userId);
  return row ? { apiKey: row.apiKey, secret: deps.secrets.open(row.secretSealed) } : undefined;
}

/** The user's `Exchange`; 400 with a pointer to API Setting when no keys are bound. */
export async function userExchange(deps: AppDeps, userId: string) {
  const keys = await loadUserKeys(deps, userId);
  if (!keys) throw new HttpError(400, walletMessages.notConnected);
  return deps.exchanges.forUser(userId, keys);
}
