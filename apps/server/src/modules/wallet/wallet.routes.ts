import {
  apiKeysInputSchema,
  walletMessages as m,
  money,
  swapInputSchema,
  transferInputSchema,
} from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../lib/http-error';
import { currentUser, requireUser } from '../../plugins/auth';
import { deleteApiKeys, findApiKeys, saveApiKeys } from './api-keys.repo';
import { serverPublicIp } from './server-ip';
import { loadUserKeys, userExchange } from './user-exchange';
import { swapToUsdt, transferUsdt, usdtBalances } from './wallet.service';

const isSpot = (v: string) => v.toLowerCase() === 'spot';

/** API Setting and the Wallet Dashboard (spec 01 API Setting, spec 02 Wallet). */
export async function walletRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireUser(deps) };
  const exchangeOf = (userId: string) => userExchange(deps, userId);

  r.get('/api/serverip', guard, async () => ({ ip: deps.config.serverPublicIp ?? serverPublicIp() }));

  r.get('/api/fetchkeys', guard, async (req) => ({
    apiKey: (await findApiKeys(deps.db, currentUser(req).id))?.apiKey ?? null,
  }));

  r.post('/api/apikeys', { ...guard, schema: { body: apiKeysInputSchema } }, async (req) => {
    const userId = currentUser(req).id;
    const { apiKey, secretKey } = req.body;
    if (apiKey === null || secretKey === null) {
      if (await deps.runningWork.hasRunning(userId)) throw new HttpError(400, m.disconnectWhileRunning);
      await deleteApiKeys(deps.db, userId);
      return { success: true, message: m.disconnected };
    }
    const keys = { apiKey, secret: secretKey };
    if (!(await deps.exchanges.verifyKeys(userId, keys))) throw new HttpError(400, m.invalidKeys);
    await saveApiKeys(deps.db, userId, apiKey, deps.secrets.seal(secretKey), deps.clock.now());
    return { success: true, message: m.keysSaved };
  });

  r.get('/api/checkConnection', guard, async (req) => {
    const userId = currentUser(req).id;
    const keys = await loadUserKeys(deps, userId);
    return {
      connected: keys !== undefined && (await deps.exchanges.verifyKeys(userId, keys).catch(() => false)),
    };
  });

  r.get('/api/spotBalance', guard, async (req) => ({
    spotusdtAmount: (await usdtBalances(await exchangeOf(currentUser(req).id))).spot,
  }));

  r.get('/api/futuresBalance', guard, async (req) => ({
    futuresusdtAmount: (await usdtBalances(await exchangeOf(currentUser(req).id))).futures,
  }));

  r.get('/api/spotAssets', guard, async (req) => {
    const assets = await (await exchangeOf(currentUser(req).id)).spotAssets();
    return {
      assets: assets.map((a) => ({
        asset: a.asset,
        balance: a.total,
        free: a.free,
        value: a.valueUsdt ?? null,
      })),
    };
  });

  r.get('/api/futuresAssets', guard, async (req) => {
    const balances = await (await exchangeOf(currentUser(req).id)).balances('future');
    return {
      assets: balances.map((b) => {
        const total = money(b.free).plus(b.locked).toFixed();
        return { asset: b.asset, balance: total, free: b.free, value: b.asset === 'USDT' ? total : null };
      }),
    };
  });

  r.post('/api/transferspottofutures', { ...guard, schema: { body: transferInputSchema } }, async (req) => {
    if (!isSpot(req.body.from) || isSpot(req.body.to)) throw new HttpError(400, m.transferDirection);
    return transferUsdt(await exchangeOf(currentUser(req).id), 'spot_to_future', req.body.amount);
  });

  r.post('/api/transferfuturestospot', { ...guard, schema: { body: transferInputSchema } }, async (req) => {
    if (isSpot(req.body.from) || !isSpot(req.body.to)) throw new HttpError(400, m.transferDirection);
    return transferUsdt(await exchangeOf(currentUser(req).id), 'future_to_spot', req.body.amount);
  });

  r.post('/api/swaptousdt', { ...guard, schema: { body: swapInputSchema } }, async (req) =>
    swapToUsdt(await exchangeOf(currentUser(req).id), req.body.asset, req.body.amount),
  );
}
