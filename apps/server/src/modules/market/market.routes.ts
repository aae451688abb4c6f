import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { embeddedFunding, embeddedHistory } from '@gridbot/exchange';
import {
  candleCoverageQuerySchema,
  candleHistoryMessages,
  candleHistoryQuerySchema,
  candlesQuerySchema,
  livePriceInputSchema,
  marketApiPaths,
  SYMBOLS,
} from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { requireUser } from '../../plugins/auth';

const TICKERS_CACHE_MS = 1_000;

/** Market data from the configured feed (sim, replay or Binance): pairs, prices, ticker tape, candles. */
export async function marketRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: requireUser(deps) };
  const { feed } = deps;

  // Public: the ticker tape runs on the login page too. Every page polls it; the feed moves once a second per
  // pair, so one answer (already serialised) serves every request of a second.
  let cached: { atMs: number; body: Promise<string> } | undefined;
  const tickersBody = async () => {
    const tickers = await Promise.all(
      SYMBOLS.map(async (symbol) => {
        const t = await feed.ticker24h(symbol, 'spot');
        return { symbol, price: t.lastPrice, changePct: t.changePct };
      }),
    );
    return JSON.stringify({ source: feed.kind, tickers });
  };
  r.get(marketApiPaths.tickers, async (_req, reply) => {
    const now = performance.now();
    if (!cached || now - cached.atMs >= TICKERS_CACHE_MS) {
      const body = tickersBody();
      const entry = { atMs: now, body };
      cached = entry;
      body.catch(() => {
        if (cached === entry) cached = undefined;
      });
    }
    return reply.type('application/json; charset=utf-8').send(await cached.body);
  });

  r.get(marketApiPaths.symbolPairs, guard, async () => ({ pairs: SYMBOLS }));

  r.post(marketApiPaths.spotPrice, { ...guard, schema: { body: livePriceInputSchema } }, async (req) => ({
    pair: req.body.pair,
    price: await feed.price(req.body.pair, 'spot'),
  }));

  r.post(marketApiPaths.futurePrice, { ...guard, schema: { body: livePriceInputSchema } }, async (req) => ({
    pair: req.body.pair,
    price: await feed.price(req.body.pair, 'future'),
  }));

  const history = deps.candleHistory ?? embeddedHistory(resolve('fixtures/history'), feed);
  // Without a configured source: the shipped Binance rates only (no paper rate is configured then).
  const funding = deps.fundingHistory ?? embeddedFunding(resolve('fixtures/history'), null);
  const chartOrHistory = candlesQuerySchema.extend({
    category: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
  });
  // Without from and to: the chart's most recent candles from the feed. With them: candle history for a
  // backtest, in the compact encoding of packages/shared (backtest/candle-history.ts); 404 when there is none.
  r.get(
    marketApiPaths.candleCoverage,
    { ...guard, schema: { querystring: candleCoverageQuerySchema } },
    async (req) => ({
      spans: await history.coverage(req.query),
    }),
  );

  r.get(marketApiPaths.candles, { ...guard, schema: { querystring: chartOrHistory } }, async (req) => {
    if (req.query.from === undefined && req.query.to === undefined) {
      const { symbol, interval, limit, market } = req.query;
      return { symbol, interval, market, candles: await feed.candles(symbol, market, interval, limit) };
    }
    const parsed = candleHistoryQuerySchema.safeParse(req.query);
    if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid request.');
    const q = parsed.data;
    const encoded = await history.read(q);
    if (encoded.dt.length === 0)
      throw new HttpError(404, candleHistoryMessages.noCandles(q.symbol, q.interval));
    // Futures: the funding rates of the period ride along, for the backtest to book (docs/trading-rules.md §2.2).
    if (q.category === 'future') encoded.funding = await funding.read(q);
    return encoded;
  });
}
