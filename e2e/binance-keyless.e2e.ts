import { FakeBinanceServer } from '@gridbot/exchange/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext, shoot } from './support/browser';
import { newUser, REPLAY_MARKET, setUpJourney, signUpThroughUi, watchFailedGets } from './support/journey';

// A new user in Binance mode who has not bound an API key yet: every screen a member reaches loads and keeps
// polling without a 4xx answer, and the screens with balances say to bind a key, with the way to API Setting.
let fake: FakeBinanceServer;
beforeAll(async () => {
  fake = await FakeBinanceServer.start({ apiKey: 'unused-key', secret: 'unused-secret' });
});
afterAll(async () => {
  await fake?.close();
});

const app = setUpJourney('binance-keyless', () => ({
  ...REPLAY_MARKET,
  EXCHANGE: 'binance',
  BINANCE_REST_URL: fake.url,
}));

/** Every screen of the sidebar and the profile menu (docs/spec/01-core-screens.md Shell), and Help. */
const SCREENS = [
  '/dashboard',
  '/botcreate',
  '/mystrategies',
  '/createscalpingstrategy',
  '/startbot',
  '/cycle',
  '/livebots',
  '/subscription',
  '/mywallet',
  '/api-setting',
  '/security',
  '/referral-program',
  '/history',
  '/notifications',
  '/help',
  '/Wallet-deposit',
  '/withdraw',
];

/** The screens that show the exchange's balances or start bots: each says to bind a key, with a link. */
const BALANCE_SCREENS = ['/dashboard', '/mywallet', '/startbot'];
const BIND_LINK = { name: 'Go to API Setting' };

describe('Binance mode without an API key', () => {
  it('makes no 4xx on any screen while it polls, and points to API Setting where balances would be', async () => {
    const context = await newContext(app.browser, app.server.url);
    const page = await signUpThroughUi(app, context, newUser('keyless'));
    const failed = watchFailedGets(page);
    // A poll happens every 10 s: the page clock runs ahead so each screen polls several times.
    await page.clock.install();
    for (const path of SCREENS) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.clock.runFor(25_000);
      await page.waitForLoadState('networkidle');
      if (BALANCE_SCREENS.includes(path)) {
        const link = page.getByRole('link', BIND_LINK).first();
        await link.waitFor();
        expect(await link.getAttribute('href'), path).toBe('/api-setting');
      }
    }
    expect(failed).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows the bind-a-key state on the wallet and Start BOT in both themes at 390 px', async () => {
    for (const theme of ['dark', 'light'] as const) {
      const context = await newContext(app.browser, app.server.url, 'phone');
      await context.addInitScript((value) => window.localStorage.setItem('theme', value), theme);
      const page = await signUpThroughUi(app, context, newUser(`keyless${theme}`));
      const failed = watchFailedGets(page);
      for (const path of ['/mywallet', '/startbot']) {
        await page.goto(path);
        await page.getByRole('link', BIND_LINK).first().waitFor();
        await shoot(page, `binance-keyless${path.replace('/', '-')}-${theme}-390`);
      }
      expect(failed).toEqual([]);
      await context.close();
    }
  }, 120_000);
});
