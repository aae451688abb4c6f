import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, shoot } from './support/browser';
import { DEMO, inEveryLook, logInAsDemo, setUpJourney, watchPage } from './support/journey';

// The journey: turn two-factor sign-in on by reading the setup key from the page and computing the code
// here (as an authenticator app would), which ends another device's session; end that device's next session
// from the list and see its token refused, log out, log in with password then code, have a wrong code
// refused, use a recovery code once, and find that changing API keys asks for the code. Then the Security
// page in both themes at 1280 and 390 px.
const journey = setUpJourney('security');

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** The authenticator's code `offsetS` seconds from now. */
const codeOf = (secret: string, offsetS = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetS * 1000 });

async function apiAs(token: string, path: string, body?: unknown, userAgent?: string) {
  const res = await fetch(`${journey.server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(userAgent ? { 'user-agent': userAgent } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function openLogin(context: BrowserContext, theme: 'dark' | 'light' = 'dark'): Promise<Page> {
  const page = await context.newPage();
  watchPage(page);
  await page.goto('/');
  await page.evaluate((value) => window.localStorage.setItem('theme', value), theme);
  await page.goto('/');
  await journey.see(page, 'Log in to your account');
  await page.getByLabel('Email Address or Username').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'LogIn' }).click();
  await page.getByLabel('Authentication code').waitFor();
  return page;
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'LogIn' }).click();
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await journey.see(page, 'Log in to your account');
}

let secret = '';
let recovery: string[] = [];
/** The first browser's session, kept for the screenshots: logins are rate-limited like the password. */
let kept = { token: '', user: '' };

describe('two-factor sign-in and sessions', () => {
  it('sets 2FA up from the page, ends another session, and asks for the code at login', async () => {
    const context = await newContext(journey.browser, journey.server.url);
    const page = await logInAsDemo(journey, context);
    // Another device signed in to the same account.
    const other = await apiAs('', '/api/cyborxlogin', DEMO, FIREFOX);
    expect(other.status).toBe(200);
    const otherToken = String(other.body.token);

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Security' }).click();
    await page.getByRole('heading', { name: 'Security', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secretText = page.getByTestId('totp-secret');
    await secretText.waitFor();
    secret = (await secretText.textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await shoot(page, 'security-2fa-setup-dark-1280');
    await page.getByLabel('Code from the app').fill(codeOf(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByTestId('recovery-codes');
    await codes.waitFor();
    recovery = (await codes.locator('li').allTextContents()).map((c) => c.trim());
    expect(recovery).toHaveLength(10);
    await shoot(page, 'security-recovery-codes-dark-1280');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await journey.see(page, 'On');

    // Turning it on ended the other device's session, as a password change does; this page's stays.
    expect((await apiAs(otherToken, '/api/me')).status).toBe(401);
    // Signed in there again (with a recovery code: the app's next code belongs to the next test), the other
    // device's session is ended from the list: its token is refused from then on.
    const again = await apiAs('', '/api/cyborxlogin', { ...DEMO, code: recovery[9] }, FIREFOX);
    expect(again.status).toBe(200);
    const againToken = String(again.body.token);
    await page.reload();
    await page.getByRole('heading', { name: 'Security', exact: true }).waitFor();
    await page.getByRole('button', { name: /^Log out Firefox 133 on Linux/ }).click();
    await expect.poll(async () => (await apiAs(againToken, '/api/me')).status).toBe(401);

    // Changing API keys asks for the code (the paper exchange needs no keys, so the API is asked directly).
    const token = await page.evaluate(() => window.localStorage.getItem('token') ?? '');
    const keys = await apiAs(token, '/api/apikeys', { apiKey: 'key-123456', secretKey: 'secret-123456' });
    expect(keys).toMatchObject({ status: 403, body: { twoFactorRequired: true } });

    kept = await page.evaluate(() => ({
      token: window.localStorage.getItem('token') ?? '',
      user: window.localStorage.getItem('user') ?? '',
    }));
    await context.close();
  });

  it('logs in with password then code, refuses a wrong code, and takes a recovery code once', async () => {
    const context = await newContext(journey.browser, journey.server.url);
    const page = await openLogin(context);
    await shoot(page, 'login-code-dark-1280');
    const right = codeOf(secret, 30);
    await enterCode(page, right === '000000' ? '111111' : '000000');
    await journey.see(page, 'The code is wrong or was already used. Please try again.');
    // The code of the next 30-second step: the one that turned 2FA on is spent.
    await enterCode(page, right);
    await page.waitForURL('**/dashboard');
    await logOut(page);

    await page.getByLabel('Email Address or Username').fill(DEMO.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
    await page.getByRole('button', { name: 'LogIn' }).click();
    await enterCode(page, recovery[0] as string);
    await page.waitForURL('**/dashboard');
    await logOut(page);

    const again = await openLogin(context);
    await enterCode(again, recovery[0] as string);
    await journey.see(again, 'The code is wrong or was already used. Please try again.');
    await context.close();
  });

  it('shows the Security page in both themes at 1280 and 390 px', async () => {
    await inEveryLook(
      journey,
      async (context, theme) => {
        const page = await context.newPage();
        watchPage(page);
        await page.goto('/');
        await page.evaluate(
          ({ session, look }) => {
            window.localStorage.setItem('theme', look);
            window.localStorage.setItem('token', session.token);
            window.localStorage.setItem('user', session.user);
          },
          { session: kept, look: theme },
        );
        await page.goto('/security');
        await page.getByRole('heading', { name: 'Security log' }).waitFor();
        return page;
      },
      async (page, look) => {
        await journey.see(page, 'Recovery code used');
        await shoot(page, `security-${look.theme}-${look.width}`);
      },
    );
  });
});
