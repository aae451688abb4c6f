import {
  apiKeyApiPaths,
  apiKeysInputSchema,
  cancelOrderInputSchema,
  closePositionInputSchema,
  walletMessages as m,
  money,
  openOrderApiPaths,
  positionApiPaths,
  swapInputSchema,
  transferInputSchema,
  walletApiPaths,
} from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { currentUser, requireUser } from '../../plugins/auth';
import { committedFunds, freePart, usdtBalances } from '../bots';
import { findApiKeys, isPaperVenue, loadUserKeys } from '../exchange';
import { requireSecondFactor, storedPermissions } from '../security';
import { removeKeys, saveKeys } from './api-keys.service';
import { cancelOpenOrder, listOpenOrders } from './open-orders.service';
import { closePosition, listPositions } from './positions.service';
import { serverPublicIp } from './server-ip';
import { swapToUsdt, transferUsdt } from './wallet.service';

const isSpot = (v: string) => v.toLowerCase() === 'spot';

/** API Setting and the Wallet Dashboard (docs/spec/01-core-screens.md API Setting, docs/spec/02-bots-wallet-account.md Wallet). */
export async function walletRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireUser(deps) };

  r.get(apiKeyApiPaths.serverIp, guard, async () => ({ ip: deps.config.serverPublicIp ?? serverPublicIp() }));

  r.get(apiKeyApiPaths.fetch, guard, async (req) => {
    const row = await findApiKeys(deps.db, currentUser(req).id);
    return { apiKey: row?.apiKey ?? null, exchange: row?.exchange ?? null };
  });

  r.post(apiKeyApiPaths.save, { ...guard, schema: { body: apiKeysInputSchema } }, async (req) => {
    const user = currentUser(req);
    const { apiKey, secretKey, exchange, passphrase } = req.body;
    await requireSecondFactor(deps, user, req.body.code, req.ip);
    if (apiKey === null || secretKey === null) return removeKeys(deps, user.id, req.ip);
    return saveKeys(deps, user.id, { apiKey, secret: secretKey, exchange, passphrase }, req.ip);
  });

  // `venue` lets API Setting explain that the paper exchange needs no keys (every user has a paper account).
  r.get(apiKeyApiPaths.checkConnection, guard, async (req) => {
    const userId = currentUser(req).id;
    const keys = await loadUserKeys(deps, userId);
    return {
      connected: keys !== undefined && (await deps.exchanges.verifyKeys(userId, keys).catch(() => false)),
      venue: deps.exchanges.venue,
      // The account's exchange (the bound key's; paper on paper) and the exchanges a key may be bound on.
      exchange: isPaperVenue(deps) ? 'paper' : keys ? (keys.exchange ?? 'binance') : null,
      keyExchanges: deps.exchanges.keyExchanges ?? [],
      keysRequired: !isPaperVenue(deps),
      // What the saved key may do, as Binance answered at the last check (null on paper).
      permissions: keys && !isPaperVenue(deps) ? await storedPermissions(deps.db, userId) : null,
    };
  });

  /**
   * The user's exchange for the Wallet Dashboard's reads; undefined on Binance while no keys are bound. The
   * dashboard polls these every 10 s, so a keyless user gets that as data (`connected: false`, no figures),
   * not a 400 on each poll; what moves money still answers 400 with the way to API Setting.
   */
  const readableExchange = async (userId: string) => {
    const keys = await loadUserKeys(deps, userId);
    return keys ? deps.exchanges.forUser(userId, keys) : undefined;
  };

  /** Balances with what running bots hold taken out: the transferable figures of the cards. */
  const balancesOf = async (userId: string) => {
    const [exchange, committed] = await Promise.all([readableExchange(userId), committedFunds(deps, userId)]);
    const balances = exchange ? await usdtBalances(exchange, committed) : undefined;
    return { balances, committed, venue: exchange?.venue };
  };

  r.get(walletApiPaths.spotBalance, guard, async (req) => {
    const { balances, committed, venue } = await balancesOf(currentUser(req).id);
    if (!balances) return { spotusdtAmount: null, committedUsdt: '0', connected: false };
    // The account's exchange (paper, Binance or Bybit), which the wallet names.
    return { spotusdtAmount: balances.spot, committedUsdt: committed.spotUsdt, venue };
  });

  r.get(walletApiPaths.futuresBalance, guard, async (req) => {
    const { balances, committed } = await balancesOf(currentUser(req).id);
    if (!balances) return { futuresusdtAmount: null, committedUsdt: '0', connected: false };
    return { futuresusdtAmount: balances.futures, committedUsdt: committed.futuresUsdt };
  });

  /** What each running bot and cycle holds (the Wallet Dashboard's "Held by bots"). */
  r.get(walletApiPaths.committedFunds, guard, async (req) => committedFunds(deps, currentUser(req).id));

  r.get(walletApiPaths.spotAssets, guard, async (req) => {
    const userId = currentUser(req).id;
    const [exchange, committed] = await Promise.all([readableExchange(userId), committedFunds(deps, userId)]);
    if (!exchange) return { assets: [], connected: false };
    const assets = await exchange.spotAssets();
    return {
      assets: assets.map((a) => {
        const held = a.asset === 'USDT' ? committed.spotUsdt : committed.coins[a.asset];
        return {
          asset: a.asset,
          balance: a.total,
          free: freePart(a.free, held),
          committed: held ?? '0',
          value: a.valueUsdt ?? null,
        };
      }),
    };
  });

  r.get(walletApiPaths.futuresAssets, guard, async (req) => {
    const userId = currentUser(req).id;
    const [exchange, committed] = await Promise.all([readableExchange(userId), committedFunds(deps, userId)]);
    if (!exchange) return { assets: [], connected: false };
    const balances = await exchange.balances('future');
    return {
      assets: balances.map((b) => {
        const total = money(b.free).plus(b.locked).toFixed();
        const held = b.asset === 'USDT' ? committed.futuresUsdt : undefined;
        return {
          asset: b.asset,
          balance: total,
          free: freePart(b.free, held),
          committed: held ?? '0',
          value: b.asset === 'USDT' ? total : null,
        };
      }),
    };
  });

  /** Every futures position of the user's account, with the bot it belongs to ("no bot" otherwise). */
  r.get(positionApiPaths.list, guard, async (req) => {
    const userId = currentUser(req).id;
    const exchange = await readableExchange(userId);
    if (!exchange) return { positions: [], connected: false };
    return { positions: await listPositions(deps, userId, exchange), connected: true };
  });

  r.post(positionApiPaths.close, { ...guard, schema: { body: closePositionInputSchema } }, async (req) =>
    closePosition(deps, currentUser(req).id, req.body.symbol),
  );

  /** Every open order of the user's account, spot and futures, with the bot it belongs to ("no bot" otherwise). */
  r.get(openOrderApiPaths.list, guard, async (req) => {
    const userId = currentUser(req).id;
    const exchange = await readableExchange(userId);
    if (!exchange) return { orders: [], connected: false };
    return { orders: await listOpenOrders(deps, userId, exchange), connected: true };
  });

  r.post(openOrderApiPaths.cancel, { ...guard, schema: { body: cancelOrderInputSchema } }, async (req) =>
    cancelOpenOrder(deps, currentUser(req).id, req.body),
  );

  r.post(walletApiPaths.spotToFutures, { ...guard, schema: { body: transferInputSchema } }, async (req) => {
    if (!isSpot(req.body.from) || isSpot(req.body.to)) throw new HttpError(400, m.transferDirection);
    return transferUsdt(deps, currentUser(req).id, 'spot_to_future', req.body.amount);
  });

  r.post(walletApiPaths.futuresToSpot, { ...guard, schema: { body: transferInputSchema } }, async (req) => {
    if (isSpot(req.body.from) || !isSpot(req.body.to)) throw new HttpError(400, m.transferDirection);
    return transferUsdt(deps, currentUser(req).id, 'future_to_spot', req.body.amount);
  });

  r.post(walletApiPaths.swapToUsdt, { ...guard, schema: { body: swapInputSchema } }, async (req) => {
    return swapToUsdt(deps, currentUser(req).id, req.body.asset, req.body.amount);
  });
}
