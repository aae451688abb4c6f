import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type AppServer, startAppServer } from './app-server';
import { launchBrowser, newContext, readMailbox, shoot, VIEWPORTS } from './browser';

/** The replayed candles at 600× speed: bots and cycles buy and sell within seconds. */
export const REPLAY_MARKET = {
  MARKET_FEED: 'replay',
  MARKET_REPLAY_DIR: 'fixtures/replay',
  MARKET_SPEED: '600',
};

/** The account the embedded server seeds. */
export const DEMO = { email: 'demo@gridbot.local', password: 'demo1234' };

export interface Json {
  [key: string]: unknown;
}

export interface Journey {
  server: AppServer;
  browser: Browser;
  /** Sent as the bearer token by `api` once set (`logInAsDemo` sets it). */
  token: string;
  /** GET without a body, POST with one; the JSON answer and its status. */
  api(path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  /** Waits for the exact text; on failure saves a screenshot and prints the end of the server's output. */
  see(page: Page, text: string, timeout?: number): Promise<void>;
}

/**
 * One real server (with `env`) and one browser for a journey file, started before its tests and stopped
 * after them; `name` prefixes its failure screenshots. `env` may be a function, read when the server starts
 * (after the file's own earlier `beforeAll`, e.g. one that starts a Binance double whose address it needs).
 */
export function setUpJourney(
  name: string,
  env: Record<string, string> | (() => Record<string, string>) = {},
): Journey {
  const journey: Journey = {
    server: undefined as unknown as AppServer,
    browser: undefined as unknown as Browser,
    token: '',
    async api(path, body) {
      const res = await fetch(`${journey.server.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(journey.token ? { authorization: `Bearer ${journey.token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Json };
    },
    async see(page, text, timeout = 15_000) {
      try {
        await page.getByText(text, { exact: true }).first().waitFor({ timeout });
      } catch (error) {
        await shoot(page, `${name}-failure-${text.slice(0, 30).replace(/[^a-z0-9]+/gi, '-')}`);
        console.error(`URL ${page.url()}\n${journey.server.output().slice(-3000)}`);
        throw error;
      }
    },
  };
  beforeAll(async () => {
    journey.server = await startAppServer(typeof env === 'function' ? env() : env);
    journey.browser = await launchBrowser();
  });
  afterAll(async () => {
    await journey.browser?.close();
    await journey.server?.stop();
  });
  return journey;
}

/** Prints the page's uncaught errors and console errors (not failed resource loads) with the test output. */
export function watchPage(page: Page): void {
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().includes('Failed to load resource'))
      console.error(`console: ${msg.text()}`);
  });
}

const settles = (wait: Promise<unknown>) =>
  wait.then(
    () => true,
    () => false,
  );

/** Logs the demo account in through the login page, in `theme`, past the disclaimer; keeps its token. */
export async function logInAsDemo(
  journey: Journey,
  context: BrowserContext,
  theme: 'dark' | 'light' = 'dark',
): Promise<Page> {
  const page = await context.newPage();
  watchPage(page);
  // Through /dashboard: the guard sends us to the login page client-side. apps/web/dist is shared with other
  // journeys that may be rebuilding it right now, so try again for a while.
  const title = page.getByText('Log in to your account', { exact: true });
  for (let attempt = 0; attempt < 12; attempt += 1) {
    await page.goto('/dashboard');
    await page.evaluate((value) => window.localStorage.setItem('theme', value), theme);
    await page.goto('/dashboard');
    if (await settles(title.waitFor({ timeout: 10_000 }))) break;
  }
  await journey.see(page, 'Log in to your account');
  await page.getByLabel('Email Address or Username').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  // The demo account agrees once; later logins skip the dialog. The dashboard's own check of the agreement says
  // which, so no login waits for a dialog that will not come.
  const check = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/disclaimeragreementcheck' && response.ok(),
  );
  await page.getByRole('button', { name: 'LogIn' }).click();
  await page.waitForURL('**/dashboard');
  const { agreed } = (await (await check).json()) as { agreed: boolean };
  // The dialog is modal: while it is open the page behind it is hidden from the accessibility tree, so the
  // heading is looked for once it is gone.
  const heading = page.getByRole('heading', { name: 'Dashboard', exact: true });
  if (!agreed) {
    const disclaimer = page.getByRole('dialog', { name: 'Disclaimer' });
    await disclaimer.getByRole('button', { name: 'Agree' }).click();
    await disclaimer.waitFor({ state: 'detached' });
  }
  await heading.waitFor();
  journey.token = await page.evaluate(() => window.localStorage.getItem('token') ?? '');
  return page;
}

/** Moves `amount` USDT from the spot to the futures wallet, so futures bots and cycles can start. */
export async function fundFutures(journey: Journey, amount: string): Promise<void> {
  const transfer = await journey.api('/api/transferspottofutures', {
    from: 'Spot',
    to: 'Futures',
    coin: 'USDT',
    amount,
  });
  expect(transfer.status).toBe(200);
}

export interface Look {
  theme: 'dark' | 'light';
  /** The viewport's width in px (1280 or 390), as the screenshot names give it. */
  width: number;
}

/** Runs `body` at 1280 and 390 px in the dark and light themes, each in a fresh context opened by `open`. */
export async function inEveryLook(
  journey: Journey,
  open: (context: BrowserContext, theme: Look['theme']) => Promise<Page>,
  body: (page: Page, look: Look) => Promise<void>,
): Promise<void> {
  for (const viewport of ['desktop', 'phone'] as const) {
    for (const theme of ['dark', 'light'] as const) {
      const context = await newContext(journey.browser, journey.server.url, viewport);
      const page = await open(context, theme);
      await body(page, { theme, width: VIEWPORTS[viewport].width });
      await context.close();
    }
  }
}

export interface NewUser {
  email: string;
  username: string;
  contactNo: string;
  password: string;
}

/** A user nobody has seen yet: unique e-mail and username per call. */
export function newUser(name: string): NewUser {
  const stamp = `${Date.now() % 1_000_000}${Math.floor(Math.random() * 100)}`;
  return {
    email: `${name}${stamp}@example.com`,
    username: `${name}_${stamp}`,
    contactNo: '+15551234567',
    password: 'secret123',
  };
}

/**
 * Signs `who` up through the sign-up page (from a referral link when given), enters the e-mailed code and
 * agrees to the disclaimer; keeps the new session's token for `journey.api`.
 */
export async function signUpThroughUi(
  journey: Journey,
  context: BrowserContext,
  who: NewUser,
  referralPath = '/signup',
): Promise<Page> {
  const page = await context.newPage();
  watchPage(page);
  // apps/web/dist is shared with other journeys that may be rebuilding it right now, so try again a while.
  const form = page.getByLabel('Email Address');
  for (let attempt = 0; attempt < 12; attempt += 1) {
    await page.goto(referralPath);
    if (await settles(form.waitFor({ timeout: 10_000 }))) break;
  }
  await form.fill(who.email);
  await page.getByLabel('Username').fill(who.username);
  await page.getByLabel('Contact No').fill(who.contactNo);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByLabel('Confirm Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL(/\/verifyOtp/);
  const mail = await readMailbox(context, journey.server.url, who.email);
  const code = mail.text.match(/\b(\d{6})\b/)?.[1] ?? '';
  expect(code).toMatch(/^\d{6}$/);
  await page.getByLabel('Verification code').fill(code);
  await page.waitForURL(/\/dashboard/);
  const disclaimer = page.getByRole('dialog', { name: 'Disclaimer' });
  await disclaimer.getByRole('button', { name: 'Agree' }).click();
  await disclaimer.waitFor({ state: 'detached' });
  journey.token = await page.evaluate(() => window.localStorage.getItem('token') ?? '');
  return page;
}

/**
 * Every answer with a 4xx or 5xx status to a GET the page made (the routine polling and loading; a refused
 * action is a POST and is the journey's own business), as "status path".
 */
export function watchFailedGets(page: Page): string[] {
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'GET' && response.status() >= 400)
      failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  return failed;
}
