import { isExchangeError } from '@gridbot/exchange';
import {
  KEY_EXCHANGE_NAMES,
  type KeyExchange,
  walletMessages as m,
  securityMessages as sm,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { deleteApiKeys, findApiKeys, isPaperVenue, saveApiKeys, storePermissions } from '../exchange';
import { inspectKey, keyHint, recordSecurityEvent, toKeyPermissions } from '../security';
import { serverPublicIp } from './server-ip';

/** What checking a key's rights reads: the key's owner's exchange and secrets, and the injected clock. */
const checkDeps = (deps: Pick<AppDeps, 'db' | 'exchanges' | 'secrets' | 'clock'>) => ({
  db: deps.db,
  exchanges: deps.exchanges,
  secrets: deps.secrets,
  now: () => deps.clock.now(),
});

/** The exchange unreachable (no answer, 5xx, rate limit): the keys cannot be checked, so they are not saved. */
const unreachable = (error: unknown) => {
  throw isExchangeError(error) ? new HttpError(503, m.keysSaveFailed) : error;
};

/**
 * Saves a key pair once its exchange (Binance, Bybit or OKX, with the OKX key's passphrase) accepts it and its rights are fit to trade with: a
 * key that can withdraw, or lacks the trading it needs, is refused; one that is not IP-restricted is saved
 * with a warning naming the server's IP to whitelist. On paper the exchange is stored and means nothing.
 */
export async function saveKeys(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'exchanges' | 'secrets' | 'runningWork'>,
  userId: string,
  input: { apiKey: string; secret: string; exchange: KeyExchange; passphrase?: string | undefined },
  ip: string,
) {
  const { apiKey, secret, exchange } = input;
  const passphrase = exchange === 'okx' ? input.passphrase : undefined;
  if (!isPaperVenue(deps) && !deps.exchanges.keyExchanges?.includes(exchange))
    throw new HttpError(400, m.exchangeUnavailable(KEY_EXCHANGE_NAMES[exchange]));
  await refuseSwitchWhileRunning(deps, userId, exchange);
  const keys = { apiKey, secret, exchange, ...(passphrase ? { passphrase } : {}) };
  const valid = await deps.exchanges.verifyKeys(userId, keys).catch(unreachable);
  if (!valid) throw new HttpError(400, m.invalidKeys);
  const { permissions, refusal } = await inspectKey(checkDeps(deps), userId, keys).catch(unreachable);
  if (refusal) throw new HttpError(400, refusal);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const sealed = {
      apiKey,
      secretSealed: deps.secrets.seal(secret),
      exchange,
      passphraseSealed: passphrase ? deps.secrets.seal(passphrase) : null,
    };
    await saveApiKeys(tx, userId, sealed, now);
    if (permissions) await storePermissions(tx, userId, permissions, now);
    await recordSecurityEvent(tx, { userId, type: 'key_saved', ip, detail: { apiKey: keyHint(apiKey) } });
  });
  const serverIp = deps.config.serverPublicIp ?? serverPublicIp();
  return {
    success: true as const,
    message: m.keysSaved,
    permissions: permissions ? toKeyPermissions(permissions, now) : null,
    ...(permissions && !permissions.ipRestrict ? { warning: sm.noIpRestriction(serverIp) } : {}),
  };
}

/**
 * A running bot's coin, position and orders are on the exchange of the key it started with: a key of another
 * exchange would send its next orders (its sale too) where it holds nothing. A new key of the same exchange
 * (rotated) is taken at any time. On paper the exchange names nothing, so nothing is refused.
 */
async function refuseSwitchWhileRunning(
  deps: Pick<AppDeps, 'db' | 'config' | 'exchanges' | 'runningWork'>,
  userId: string,
  exchange: KeyExchange,
) {
  if (isPaperVenue(deps)) return;
  const bound = await findApiKeys(deps.db, userId);
  if (bound && bound.exchange !== exchange && (await deps.runningWork.hasRunning(userId)))
    throw new HttpError(400, m.switchWhileRunning);
}

/** Disconnect: refused while a bot or cycle runs on the keys. */
export async function removeKeys(deps: Pick<AppDeps, 'db' | 'runningWork'>, userId: string, ip: string) {
  if (await deps.runningWork.hasRunning(userId)) throw new HttpError(400, m.disconnectWhileRunning);
  const old = await findApiKeys(deps.db, userId);
  await deps.db.transaction(async (tx) => {
    await deleteApiKeys(tx, userId);
    if (old)
      await recordSecurityEvent(tx, {
        userId,
        type: 'key_removed',
        ip,
        detail: { apiKey: keyHint(old.apiKey) },
      });
  });
  return { success: true as const, message: m.disconnected };
}
