import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, readMailbox, shoot } from './support/browser';
import { setUpJourney } from './support/journey';

// The journey: sign up through the UI, read the code from /dev/mailbox, verify, land on the dashboard,
// accept the disclaimer, toggle the theme, open the profile menu, log out, and be sent to /?redirect=/dashboard.
const app = setUpJourney('auth');

const user = {
  email: `e2e${Date.now()}@example.com`,
  username: `e2e_${Date.now() % 1_000_000}`,
  contactNo: '+15551234567',
  password: 'secret123',
};

async function theme(page: Page): Promise<'dark' | 'light'> {
  return page.evaluate(() => (document.documentElement.classList.contains('dark') ? 'dark' : 'light'));
}

describe('account journey', () => {
  it('signs up with an e-mailed code, uses the shell and logs out', async () => {
    const context = await newContext(app.browser, app.server.url);
    const page = await context.newPage();

    await page.goto('/');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Log in to your account' }).isVisible())
      .toBe(true);
    await shoot(page, 'login-dark-1280');

    await page.goto('/signup?ref=');
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Contact No').fill(user.contactNo);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByLabel('Confirm Password').fill(user.password);
    await shoot(page, 'signup-dark-1280');
    await page.getByRole('button', { name: 'Sign Up' }).click();

    await page.waitForURL(/\/verifyOtp/);
    await shoot(page, 'verify-dark-1280');
    const mail = await readMailbox(context, app.server.url, user.email);
    const code = mail.text.match(/\b(\d{6})\b/)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('Verification code').fill(code!);

    await page.waitForURL(/\/dashboard/);
    const agree = page.getByRole('button', { name: 'Agree' });
    await agree.waitFor();
    await expect.poll(() => page.getByRole('dialog', { name: 'Disclaimer' }).isVisible()).toBe(true);
    await shoot(page, 'dashboard-disclaimer-dark-1280');
    await agree.click();
    // The dialog closes once the server has the agreement: seconds on a loaded host, not the poll's default five.
    await page.getByRole('dialog', { name: 'Disclaimer' }).waitFor({ state: 'detached', timeout: 30_000 });
    await shoot(page, 'dashboard-dark-1280');

    const before = await theme(page);
    await page.getByRole('button', { name: /Switch to (light|dark) theme/ }).click();
    const after = await theme(page);
    expect(after).not.toBe(before);
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe(after);
    await shoot(page, `dashboard-${after}-1280`);

    await page.getByRole('button', { name: 'Account menu' }).click();
    const menu = page.getByRole('menu');
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await menu.textContent()).toContain(user.email);
    expect(await menu.textContent()).toContain(user.username);
    await shoot(page, `profile-menu-${after}-1280`);
    await menu.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/dashboard');
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('redirect') === '/dashboard');
    await shoot(page, `login-${after}-1280`);

    // The same account in the phone layout, both themes: the session was revoked, so log in again.
    const phone = await newContext(app.browser, app.server.url, 'phone');
    const small = await phone.newPage();
    for (const mode of ['dark', 'light'] as const) {
      await small.goto('/');
      await small.evaluate((value) => window.localStorage.setItem('theme', value), mode);
      // Shot once the form is there, not while the app is still loading (its splash screen).
      await small.goto('/?redirect=/dashboard');
      await small.getByLabel('Email Address or Username').waitFor();
      await shoot(small, `login-${mode}-390`);
      await small.goto('/signup');
      await small.getByLabel('Confirm Password').waitFor();
      await shoot(small, `signup-${mode}-390`);
    }
    await small.goto('/?redirect=/dashboard');
    await small.getByLabel('Email Address or Username').fill(user.username);
    await small.getByLabel('Password', { exact: true }).fill(user.password);
    await small.getByRole('button', { name: 'LogIn' }).click();
    await small.waitForURL(/\/dashboard/);
    await small.getByRole('heading', { name: 'Dashboard' }).first().waitFor();
    await shoot(small, 'dashboard-light-390');
    await small.evaluate(() => window.localStorage.setItem('theme', 'dark'));
    await small.reload();
    await small.getByRole('heading', { name: 'Dashboard' }).first().waitFor();
    await shoot(small, 'dashboard-dark-390');
    await context.close();
    await phone.close();
  });
});
