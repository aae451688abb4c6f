import {
  type FollowedPair,
  followPrices,
  type PricedDouble,
  type PriceFollower,
} from '@gridbot/exchange/testing';
import { botMessages as m, walletMessages } from '@gridbot/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BotKind,
  createFastStrategies,
  openBot,
  startBotThroughUi,
  waitForBuyAndSell,
} from './bot-steps';
import { newContext, setTheme, shoot } from './browser';
import { fundFutures, type Json, newUser, REPLAY_MARKET, setUpJourney, signUpThroughUi } from './journey';

/** An exchange's test double as the live-mode journey reads it. */
export interface LiveDouble extends PricedDouble {
  url: string;
  close(): Promise<void>;
  /** Every order the exchange executed (in part or in full) on `market`: its side and USDT. */
  executed(market: 'spot' | 'future'): { side: 'BUY' | 'SELL'; quote: number }[];
  /** The account's coin on the exchange's spot wallet, free and locked. */
  coinHeld(asset: string): number;
  /** The size of the account's position on the pair, 0 when none is open. */
  positionSize(symbol: string): number;
}

export interface JourneyKeys {
  apiKey: string;
  secret: string;
  passphrase?: string;
}

export interface LiveJourneyOptions<Double extends LiveDouble> {
  /** File and screenshot prefix, e.g. "binance-mode". */
  name: string;
  /** The exchange's name as API Setting offers it, e.g. "Binance". */
  exchange: string;
  /** The key as the member enters it; an OKX key carries the passphrase chosen when it was made. */
  keys: JourneyKeys;
  startDouble(keys: JourneyKeys): Promise<Double>;
  /** The app's environment beside the replayed market (EXCHANGE and the double's address). */
  env(double: Double): Record<string, string>;
  spot: { pair: string; base: string; strategy: string; amount: string };
  futures: { pair: string; strategy: string; amount: string; leverage: string };
}

/**
 * The journey in the live mode: the app with EXCHANGE=binance against an exchange's double built from its
 * documentation (over HTTP) and the replayed market at high speed. A new user saves API keys on API Setting,
 * starts a Multigrid spot bot and a Scalping futures bot from the UI, sees BUY and SELL rows, stops the spot
 * bot with sell and closes the futures position; afterwards the exchange account holds no coin of the bots
 * beyond the dust they recorded. API Setting in live mode in both themes at 390 px.
 */
export function liveModeJourney<Double extends LiveDouble>(options: LiveJourneyOptions<Double>): void {
  const { keys, spot: SPOT, futures: FUTURES } = options;
  let fake: Double;
  let follower: PriceFollower | undefined;
  beforeAll(async () => {
    fake = await options.startDouble(keys);
  });
  afterAll(async () => {
    await follower?.stop();
    await fake?.close();
  });

  const app = setUpJourney(options.name, () => ({ ...REPLAY_MARKET, ...options.env(fake) }));
  const { api, see } = app;

  const createStrategies = () =>
    createFastStrategies(app, { multigrid: SPOT.strategy, scalping: FUTURES.strategy });
  const startBot = (page: Page, kind: BotKind) =>
    startBotThroughUi(app, page, kind, kind === 'Multigrid' ? SPOT : FUTURES);

  /**
   * The double's prices follow the market the app replays (the app's own live price of each pair), as the
   * exchange's would be the app's feed in production.
   */
  function followTheReplay(pairs: readonly FollowedPair[]): PriceFollower {
    return followPrices(fake, pairs, async ({ symbol, market }) => {
      const path = market === 'spot' ? '/api/liveprice' : '/api/futureliveprice';
      const { status, body } = await api(path, { pair: symbol });
      if (status !== 200) throw new Error(`${path} ${status}`);
      return String(body.price);
    });
  }

  async function saveKeys(page: Page) {
    await page.goto('/api-setting');
    await page.getByRole('heading', { name: 'API Setting' }).waitFor();
    await page.getByLabel('Exchange').selectOption({ label: options.exchange });
    await page.getByLabel('API Key').fill(keys.apiKey);
    await page.getByLabel('Secret Key').fill(keys.secret);
    if (keys.passphrase) await page.getByLabel('Passphrase').fill(keys.passphrase);
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, walletMessages.keysSaved);
  }

  async function botIdOf(pair: string, kind: 'Multigrid' | 'Scalping'): Promise<string> {
    const { body } = await api(kind === 'Multigrid' ? '/api/botstatus' : '/api/scalpbotstatus');
    const bot = (body.bots as Json[]).find((b) => b.name === pair);
    expect(bot, `running bot of ${pair}`).toBeDefined();
    return String(bot!.id);
  }

  /** Every BUY and SELL row of a bot's order book, all pages. */
  async function bookedOrders(botId: string, market: 'spot' | 'future') {
    const path = market === 'spot' ? '/api/orderbook' : '/api/scalporderbook';
    const rows: { type: string; cummulativeQuoteQty: number }[] = [];
    for (let page = 1; ; page += 1) {
      const { status, body } = await api(path, { botID: botId, page });
      expect(status).toBe(200);
      rows.push(...(body.orders as typeof rows).filter((row) => row.type !== 'FUNDING'));
      if (page >= Number(body.pages)) return rows;
    }
  }

  /** The bot's books equal the exchange's: one row per executed order, the same USDT to the cent. */
  async function expectBooksEqualExchange(botId: string, market: 'spot' | 'future') {
    const executed = fake.executed(market);
    const booked = await bookedOrders(botId, market);
    expect(booked.length).toBe(executed.length);
    const bookedUsdt = booked.reduce((sum, row) => sum + row.cummulativeQuoteQty, 0);
    const exchangeUsdt = executed.reduce((sum, o) => sum + o.quote, 0);
    expect(bookedUsdt).toBeCloseTo(exchangeUsdt, 2);
    expect(new Set(executed.map((o) => o.side))).toEqual(new Set(['BUY', 'SELL']));
  }

  describe(`${options.exchange} mode journey`, () => {
    /** The new user's stored session (token and user), for the screenshots' fresh contexts. */
    let session: [string, string] = ['', ''];

    it(`trades a spot and a futures bot on ${options.exchange} from the UI and leaves no coin of them behind`, async () => {
      const context = await newContext(app.browser, app.server.url);
      const page = await signUpThroughUi(app, context, newUser(options.name.replace(/-mode$/, '')));
      session = await page.evaluate(
        () => [localStorage.getItem('token') ?? '', localStorage.getItem('user') ?? ''] as [string, string],
      );
      await saveKeys(page);
      await createStrategies();
      await fundFutures(app, '1000');
      follower = followTheReplay([
        { symbol: SPOT.pair, market: 'spot' },
        { symbol: FUTURES.pair, market: 'future' },
      ]);
      await follower.ready;

      await startBot(page, 'Multigrid');
      await startBot(page, 'Scalping');
      const spotId = await botIdOf(SPOT.pair, 'Multigrid');
      const futuresId = await botIdOf(FUTURES.pair, 'Scalping');

      await openBot(page, SPOT.pair, 'Multigrid');
      // The replay runs 600 times faster than real time: 90 s are 15 hours of the pair, enough to outlast a
      // falling stretch (where the grid buys and cannot yet sell) wherever the bot's start lands in the replay.
      await waitForBuyAndSell(page, 90_000);
      await page.getByRole('button', { name: 'Stop Bot' }).click();
      await page.getByRole('dialog', { name: 'Confirm Stop Bot' }).waitFor();
      await page.getByRole('button', { name: `Stop & sell ${SPOT.pair}` }).click();
      await see(page, m.stoppedSold, 30_000);
      await page.waitForURL('**/dashboard');

      await openBot(page, FUTURES.pair, 'Scalping');
      await waitForBuyAndSell(page, 40_000);
      await page.getByRole('button', { name: 'Stop Bot' }).click();
      await page.getByRole('button', { name: 'Stop & Close Position' }).click();
      await see(page, m.stoppedSold, 30_000);
      await page.waitForURL('**/dashboard');

      // Every order went to the double (the paper exchange was never used), both bots traded both ways, and
      // their books hold exactly what the exchange executed.
      await expectBooksEqualExchange(spotId, 'spot');
      await expectBooksEqualExchange(futuresId, 'future');

      // No coin of the spot bot beyond the dust it recorded; no futures position left open.
      const { body: spotBot } = await api('/api/botinfo', { botID: spotId });
      const dust = (spotBot.dust as { qty: number } | null)?.qty ?? 0;
      expect(fake.coinHeld(SPOT.base)).toBeLessThanOrEqual(dust);
      expect(fake.positionSize(FUTURES.pair)).toBe(0);
      // The dashboard reads the account's USDT and positions from the exchange afresh: the closed position
      // is not shown (the stop marked what the account holds stale), and the USDT is.
      await expect.poll(() => page.getByText(`${FUTURES.pair} Future · Scalping`).count()).toBe(0);
      const funds = page.getByRole('region', { name: 'Funds' });
      await expect.poll(() => funds.textContent(), { timeout: 15_000 }).toMatch(/Total USDT\$[\d,]+\.\d{2}/);
      await shoot(page, `${options.name}-dashboard-dark-1280`);
      await context.close();
    }, 180_000);

    it(`shows API Setting in ${options.exchange} mode in both themes at 390 px`, async () => {
      for (const theme of ['dark', 'light'] as const) {
        const phone = await newContext(app.browser, app.server.url, 'phone');
        const page = await phone.newPage();
        await page.goto('/');
        await page.evaluate(([token, user]) => {
          localStorage.setItem('token', token);
          localStorage.setItem('user', user);
        }, session);
        await setTheme(page, theme);
        await page.goto('/api-setting');
        await page.getByRole('heading', { name: 'API Setting' }).waitFor();
        await page.getByText('Connected', { exact: true }).first().waitFor();
        await shoot(page, `${options.name}-api-setting-${theme}-390`);
        await phone.close();
      }
    });
  });
}
