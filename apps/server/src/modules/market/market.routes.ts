import { candlesQuerySchema, livePriceInputSchema, SYMBOLS } from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps';
import { requireUser } from '../../plugins/auth';

/** Market data from the configured feed (sim, replay or Binance): pairs, prices, ticker tape, candles. */
export async function marketRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { preHandler: requireUser(deps) };
  const { feed } = deps;

  // Public: the ticker tape runs on the login page too.
  r.get('/api/tickers', async () => {
    const tickers = await Promise.all(
      SYMBOLS.map(async (symbol) => {
        const t = await feed.ticker24h(symbol, 'spot');
        return { symbol, price: t.lastPrice, changePct: t.changePct };
      }),
    );
    return { source: feed.kind, tickers };
  });

  r.get('/api/symbolpair', guard, async () => ({ pairs: SYMBOLS }));

  r.post('/api/liveprice', { ...guard, schema: { body: livePriceInputSchema } }, async (req) => ({
    pair: req.body.pair,
    price: await feed.price(req.body.pair, 'spot'),
  }));

  r.post('/api/futureliveprice', { ...guard, schema: { body: livePriceInputSchema } }, async (req) => ({
    pair: req.body.pair,
    price: await feed.price(req.body.pair, 'future'),
  }));

  r.get('/api/candles', { ...guard, schema: { querystring: candlesQuerySchema } }, async (req) => {
    const { symbol, interval, limit, market } = req.query;
    return { symbol, interval, market, candles: await feed.candles(symbol, market, interval, limit) };
  });
}
