import type { Exchange } from '@gridbot/exchange';
import { VENUE_NAMES, walletMessages } from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { findApiKeys } from './api-keys.repo';
import type { UserKeys } from './exchange-gateway';

/**
 * What a paper account is opened with when the user bound no keys: on the paper exchange every user has an
 * account from sign-up, and keys are never checked there.
 */
export const PAPER_ACCOUNT_KEYS: UserKeys = { apiKey: 'paper', secret: 'paper', exchange: 'binance' };

/** The exchange a user's account is on: paper, or the exchange of their bound key (none bound: undefined). */
export async function userVenue(
  deps: Pick<AppDeps, 'db' | 'exchanges'>,
  userId: string,
): Promise<Exchange['venue'] | undefined> {
  if (isPaperVenue(deps)) return 'paper';
  return (await findApiKeys(deps.db, userId))?.exchange;
}

/** The name of the exchange a user's bots trade on (VENUE_NAMES); null when no key is bound. */
export async function userVenueName(
  deps: Pick<AppDeps, 'db' | 'exchanges'>,
  userId: string,
): Promise<string | null> {
  const venue = await userVenue(deps, userId);
  return venue ? VENUE_NAMES[venue] : null;
}

/** Whether orders go to the paper exchange (then no API key is ever asked for). */
export const isPaperVenue = (deps: Pick<AppDeps, 'exchanges'>) => deps.exchanges?.venue === 'paper';

/** What opening a user's keys reads of the app's dependencies. */
export type KeyDeps = Pick<AppDeps, 'db' | 'exchanges' | 'secrets'>;

/**
 * The keys the user's exchange is opened with: their bound key, opened; undefined when none is saved on a
 * live exchange. On the paper exchange every user trades on their paper account, keys or not.
 */
export async function loadUserKeys(deps: KeyDeps, userId: string): Promise<UserKeys | undefined> {
  // The saved key is not even read on paper, where it is never used.
  const saved = isPaperVenue(deps) ? undefined : await findApiKeys(deps.db, userId);
  return exchangeKeys(deps, saved);
}

/** A saved key as the store keeps it: its secret and passphrase sealed. */
export interface SealedKeys {
  apiKey: string;
  secretSealed: string;
  exchange: UserKeys['exchange'];
  passphraseSealed: string | null;
}

/**
 * The keys an exchange is opened with from the user's saved key. On the paper exchange, where keys mean
 * nothing, the paper account's: a saved key is never opened there, so one that no longer opens (sealed under
 * a master key rotated since) trades and shows balances all the same, and a poll opens no secret.
 */
export function exchangeKeys(deps: Pick<AppDeps, 'exchanges' | 'secrets'>, saved: SealedKeys): UserKeys;
export function exchangeKeys(
  deps: Pick<AppDeps, 'exchanges' | 'secrets'>,
  saved: SealedKeys | undefined,
): UserKeys | undefined;
export function exchangeKeys(
  deps: Pick<AppDeps, 'exchanges' | 'secrets'>,
  saved: SealedKeys | undefined,
): UserKeys | undefined {
  if (isPaperVenue(deps)) return PAPER_ACCOUNT_KEYS;
  return saved ? openKeys(deps, saved) : undefined;
}

/** A saved key, opened. */
function openKeys(deps: Pick<AppDeps, 'secrets'>, row: SealedKeys): UserKeys {
  return {
    apiKey: row.apiKey,
    secret: deps.secrets.open(row.secretSealed),
    exchange: row.exchange,
    ...(row.passphraseSealed ? { passphrase: deps.secrets.open(row.passphraseSealed) } : {}),
  };
}

/** The user's `Exchange`; 400 with a pointer to API Setting when no keys are bound (Binance only). */
export async function userExchange(deps: KeyDeps, userId: string) {
  const keys = await loadUserKeys(deps, userId);
  if (!keys) throw new HttpError(400, walletMessages.notConnected);
  return deps.exchanges.forUser(userId, keys);
}
