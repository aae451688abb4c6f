import { resolve } from 'node:path';
import type { Db } from '@gridbot/db';
import {
  type CandleHistory,
  constantFundingRates,
  createMarketFeed as createFeed,
  type Exchange,
  embeddedFunding,
  embeddedHistory,
  type FundingHistory,
  type FundingRates,
  isExchangeError,
  type MarketFeed,
  PaperExchange,
  type RequestBudget,
  replayFunding,
  replayFundingRates,
  replayHistory,
} from '@gridbot/exchange';
import type { KeyExchange } from '@gridbot/shared';
import { type Env, isExchangeFeed } from '../../config/env';
import { binanceHistory } from '../market';
import { SqlPaperStore } from '../paper';
import { type ExchangeGateway, paperGateway, type UserKeys } from './exchange-gateway';

/** The market feed chosen by MARKET_FEED (docs/architecture.md §1); call start() on it. */
export function createMarketFeed(env: Env, onSubscriberError: (error: unknown) => void): Promise<MarketFeed> {
  switch (env.MARKET_FEED) {
    case 'sim':
      return createFeed({ kind: 'sim', seed: env.MARKET_SEED, onSubscriberError });
    case 'replay':
      return createFeed({
        kind: 'replay',
        dir: resolve(env.MARKET_REPLAY_DIR),
        speed: env.MARKET_SPEED,
        seed: env.MARKET_SEED,
        onSubscriberError,
      });
    case 'binance':
      return createFeed({ kind: 'binance', sandbox: env.BINANCE_SANDBOX, onSubscriberError });
    case 'bybit':
    case 'okx':
      return createFeed({ kind: env.MARKET_FEED, onSubscriberError });
  }
}

/** Bybit's or OKX's public candles and funding for backtests (ccxt loads only here). */
async function venueKlines(feed: 'bybit' | 'okx') {
  const { VenueKlines } = await (feed === 'bybit'
    ? import('@gridbot/exchange/bybit')
    : import('@gridbot/exchange/okx'));
  return new VenueKlines(feed);
}

/**
 * How the process's exchange clients spend its request budget (docs/operations.md "Request budgets"): the budget
 * the role built (in memory, or Redis with split roles) and the name of the address they leave by.
 */
export interface BudgetSpending {
  budget?: RequestBudget;
  egress?: string;
}

const spendingOf = (env: Env, budget: RequestBudget | undefined): BudgetSpending => ({
  ...(budget ? { budget } : {}),
  egress: env.EXCHANGE_EGRESS,
});

/** Candle history for backtests from the market source of MARKET_FEED (GET /api/candles with from and to). */
export async function createCandleHistory(
  env: Env,
  feed: MarketFeed,
  db: Db,
  budget?: RequestBudget,
): Promise<CandleHistory> {
  switch (env.MARKET_FEED) {
    case 'sim':
      return embeddedHistory(resolve(env.CANDLE_HISTORY_DIR), feed);
    case 'replay':
      return replayHistory(resolve(env.MARKET_REPLAY_DIR));
    case 'binance': {
      const { BinanceKlines } = await import('@gridbot/exchange/binance');
      const klines = new BinanceKlines({
        sandbox: env.BINANCE_SANDBOX,
        baseUrl: env.BINANCE_REST_URL,
        ...spendingOf(env, budget),
      });
      return binanceHistory(db, klines, Date.now);
    }
    case 'bybit':
    case 'okx':
      return binanceHistory(db, await venueKlines(env.MARKET_FEED), Date.now);
  }
}

/**
 * Funding rates of paper futures bots (docs/trading-rules.md §2.2): the replay's funding-rate files, and
 * MARKET_FUNDING_PCT for the simulated market and for pairs the files do not cover.
 */
export function createFundingRates(env: Env): Promise<FundingRates> {
  const rate = env.MARKET_FUNDING_PCT / 100;
  return env.MARKET_FEED === 'replay'
    ? replayFundingRates(resolve(env.MARKET_REPLAY_DIR), rate)
    : Promise.resolve(constantFundingRates(rate));
}

/**
 * Funding rates for futures backtests from the same source: the shipped Binance rates and the paper rate
 * (MARKET_FUNDING_PCT) on the simulated market, the replay's funding files (the paper rate for pairs without
 * one), or the funding history of the exchange whose market the deployment follows (Binance, Bybit, OKX).
 */
export async function createFundingHistory(env: Env, budget?: RequestBudget): Promise<FundingHistory> {
  switch (env.MARKET_FEED) {
    case 'sim':
      return embeddedFunding(resolve(env.CANDLE_HISTORY_DIR), env.MARKET_FUNDING_PCT / 100);
    case 'replay':
      return replayFunding(resolve(env.MARKET_REPLAY_DIR), env.MARKET_FUNDING_PCT / 100);
    case 'binance': {
      const { BinanceKlines } = await import('@gridbot/exchange/binance');
      const klines = new BinanceKlines({
        sandbox: env.BINANCE_SANDBOX,
        baseUrl: env.BINANCE_REST_URL,
        ...spendingOf(env, budget),
      });
      return { read: (q) => klines.fundingRates(q.symbol, q.from, q.to) };
    }
    case 'bybit':
    case 'okx': {
      const klines = await venueKlines(env.MARKET_FEED);
      return { read: (q) => klines.fundingRates(q.symbol, q.from, q.to) };
    }
  }
}

/** Where each live exchange's REST calls go; an exchange without an entry takes no keys here. */
export interface LiveEndpoints {
  binance: { sandbox: boolean; baseUrl: string | undefined; limits?: Env['BINANCE_LIMITS'] };
  bybit?: { baseUrl: string | undefined };
  okx?: { baseUrl: string | undefined };
}

/**
 * The live exchanges through ccxt with each user's own key, on the key's exchange (Binance, Bybit or OKX); one
 * client per user and key. Every client spends the role's request budget, each exchange under its own keys.
 */
export async function liveGateway(
  endpoints: LiveEndpoints,
  spending: BudgetSpending = {},
): Promise<ExchangeGateway> {
  // Loaded only here: ccxt takes about 1.5 s, which processes on the paper exchange do not pay.
  const [{ BinanceExchange, binanceLimitsOf }, { BybitExchange }, { OkxExchange }] = await Promise.all([
    import('@gridbot/exchange/binance'),
    import('@gridbot/exchange/bybit'),
    import('@gridbot/exchange/okx'),
  ]);
  const { limits, ...binance } = endpoints.binance;
  const binanceLimits = limits ? { limits: binanceLimitsOf(limits) } : {};
  const build = (keys: UserKeys) => {
    const credentials = { apiKey: keys.apiKey, secret: keys.secret };
    if (keys.exchange === 'okx') {
      if (!endpoints.okx) throw new Error('OKX keys are not accepted by this server');
      return new OkxExchange({
        ...spending,
        ...credentials,
        passphrase: keys.passphrase ?? '',
        ...endpoints.okx,
      });
    }
    if (keys.exchange !== 'bybit')
      return new BinanceExchange({ ...spending, ...credentials, ...binance, ...binanceLimits });
    if (!endpoints.bybit) throw new Error('Bybit keys are not accepted by this server');
    return new BybitExchange({ ...spending, ...credentials, ...endpoints.bybit });
  };
  const clients = new Map<string, { apiKey: string; exchange?: KeyExchange; client: Exchange }>();
  const clientOf = (userId: string, keys: UserKeys) => {
    const cached = clients.get(userId);
    if (cached && cached.apiKey === keys.apiKey && cached.exchange === keys.exchange) return cached.client;
    const client = build(keys);
    clients.set(userId, { apiKey: keys.apiKey, exchange: keys.exchange, client });
    return client;
  };
  return {
    venue: 'binance',
    keyExchanges: [
      'binance',
      ...(endpoints.bybit ? (['bybit'] as const) : []),
      ...(endpoints.okx ? (['okx'] as const) : []),
    ],
    forUser: clientOf,
    async verifyKeys(_userId, keys) {
      try {
        // A signed account call with fresh keys (not the cached client of older keys).
        await build(keys).balances('spot');
        return true;
      } catch (error) {
        if (isExchangeError(error) && error.kind === 'fatal') return false;
        throw error;
      }
    },
    keyPermissions: (keys) => build(keys).keyPermissions(),
  };
}

/**
 * The live exchanges' endpoints. Bybit and OKX take keys when their bots decide on real prices: with
 * Binance's market (MARKET_FEED=binance) or against a compatible server of their own (EXCHANGE_REST_URL_BYBIT,
 * EXCHANGE_REST_URL_OKX). A simulated or replayed market on their own hosts would buy and sell real coins at
 * levels the market never reached.
 */
export function liveEndpoints(env: Env): LiveEndpoints {
  const binance = { sandbox: env.BINANCE_SANDBOX, baseUrl: env.BINANCE_REST_URL, limits: env.BINANCE_LIMITS };
  // Each exchange's bots follow the one market the deployment reads: a real one (any exchange's) is close enough
  // to every other's for a grid, a simulated or replayed one is not.
  const realPrices = isExchangeFeed(env.MARKET_FEED);
  return {
    binance,
    ...(realPrices || env.EXCHANGE_REST_URL_BYBIT !== undefined
      ? { bybit: { baseUrl: env.EXCHANGE_REST_URL_BYBIT } }
      : {}),
    ...(realPrices || env.EXCHANGE_REST_URL_OKX !== undefined
      ? { okx: { baseUrl: env.EXCHANGE_REST_URL_OKX } }
      : {}),
  };
}

/**
 * The exchange chosen by EXCHANGE. The paper exchange keeps its books in the app's database; the live clients
 * spend `budget` (the role's: shared by every process with split roles).
 */
export async function createExchangeGateway(env: Env, db: Db, feed: MarketFeed, budget?: RequestBudget) {
  const paper = new PaperExchange({
    store: new SqlPaperStore(db),
    feed,
    startFunds: [{ wallet: 'spot', asset: 'USDT', amount: env.PAPER_START_USDT }],
  });
  const gateway =
    env.EXCHANGE === 'binance'
      ? await liveGateway(liveEndpoints(env), spendingOf(env, budget))
      : paperGateway(paper);
  return { gateway, paper };
}
