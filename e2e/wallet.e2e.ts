import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, readMailbox, setTheme, shoot, transitionsDone, VIEWPORTS } from './support/browser';
import { setUpJourney } from './support/journey';

// The journey: on the paper install no key is asked for: API Setting explains the paper account; transfer 100 USDT
// spot→futures and back, swap an asset to USDT, see the balances change, try an amount above the
// transferable balance; API Setting and Wallet (and their dialogs) in both themes at 1280 and 390 px.
const app = setUpJourney('wallet');

const stamp = Date.now();
const newUser = {
  email: `wallet${stamp}@example.com`,
  username: `wallet_${stamp % 1_000_000}`,
  contactNo: '+15551234567',
  password: 'secret123',
};
const demo = { email: 'demo@gridbot.local', password: 'demo1234' };

interface Session {
  token: string;
  user: unknown;
}

/** Signs a new user up through the API with the e-mailed code. */
async function signUp(context: BrowserContext): Promise<Session> {
  const signup = await context.request.post(`${app.server.url}/api/signup`, { data: newUser });
  expect(signup.status()).toBe(200);
  const mail = await readMailbox(context, app.server.url, newUser.email);
  const otp = mail.text.match(/\b(\d{6})\b/)?.[1];
  const verified = await context.request.post(`${app.server.url}/api/verify-otp`, {
    data: { ...newUser, otp },
  });
  expect(verified.status()).toBe(200);
  return (await verified.json()) as Session;
}

async function logIn(context: BrowserContext, email: string, password: string): Promise<Session> {
  const res = await context.request.post(`${app.server.url}/api/cyborxlogin`, { data: { email, password } });
  expect(res.status()).toBe(200);
  return (await res.json()) as Session;
}

/** Stores the session the way the login page does, then opens `path`. */
async function openSignedIn(page: Page, session: Session, path: string) {
  await page.goto('/');
  await page.evaluate(
    ([token, user]) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', user);
    },
    [session.token, JSON.stringify(session.user)] as const,
  );
  await page.goto(path);
}

const card = (page: Page, label: string) => page.getByRole('group', { name: label });

async function expectCard(page: Page, label: string, text: string) {
  await expect.poll(() => card(page, label).textContent(), { timeout: 15_000 }).toContain(text);
}

async function cardNumber(page: Page, label: string): Promise<number> {
  const text = (await card(page, label).textContent()) ?? '';
  return Number(text.replace(/[^0-9.]/g, ''));
}

async function toast(page: Page, text: string) {
  await page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor({ timeout: 15_000 });
}

/** What the user sees with a dialog open: the viewport (a full-page shot misplaces fixed overlays). */
async function shootDialog(page: Page, name: string) {
  await transitionsDone(page); // the 300 ms open transition
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
}

/** Waits until no dialog is on screen (the modal animates out in 300 ms). */
async function noDialog(page: Page) {
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
}

describe('wallet journey', () => {
  it('asks a paper user for no key, transfers both ways and refuses too much', async () => {
    const context = await newContext(app.browser, app.server.url);
    const page = await context.newPage();
    const session = await signUp(context);

    await openSignedIn(page, session, '/api-setting');
    await page.getByRole('heading', { name: 'API Setting' }).waitFor();
    await page.getByText('Paper trading: no API key needed').waitFor();
    expect(await page.getByLabel('API Key').count()).toBe(0);

    await page.goto('/mywallet');
    await expectCard(page, 'Spot USDT (Transferable)', '10,000.00');
    await expectCard(page, 'Futures USDT (Transferable)', '0.00');
    await expectCard(page, 'Total USDT', '10,000.00');

    // 100 USDT spot → futures.
    await page.getByRole('button', { name: 'Transfer' }).click();
    const transfer = page.getByRole('dialog', { name: 'Internal Transfers' });
    await transfer.waitFor();
    expect(await transfer.getByTestId('transfer-from').textContent()).toBe('Spot');
    await transfer.getByLabel('Amount').fill('100');
    await transfer.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Transfer successful');
    await noDialog(page);
    await expectCard(page, 'Spot USDT (Transferable)', '9,900.00');
    await expectCard(page, 'Futures USDT (Transferable)', '100.00');
    await expectCard(page, 'Total USDT', '10,000.00');
    await page.getByRole('tab', { name: 'Futures' }).click();
    await page
      .getByRole('table', { name: 'Futures assets' })
      .getByRole('cell', { name: 'USDT', exact: true })
      .waitFor();

    // More than the futures wallet holds is refused before anything is sent.
    await page.getByRole('button', { name: 'Transfer' }).click();
    await transfer.waitFor();
    await transfer.getByRole('button', { name: 'Switch direction' }).click();
    expect(await transfer.getByTestId('transfer-from').textContent()).toBe('Futures');
    expect(await transfer.getByTestId('transferable').textContent()).toBe('100.00');
    await transfer.getByLabel('Amount').fill('100.01');
    await transfer.getByText('Amount exceeds transferable balance').waitFor();
    await transfer.getByRole('button', { name: 'Confirm' }).click();
    await shootDialog(page, 'wallet-transfer-exceeds-dark-1280');
    expect(await page.getByRole('dialog', { name: 'Internal Transfers' }).isVisible()).toBe(true);

    // And back: 100 USDT futures → spot.
    await transfer.getByRole('button', { name: 'MAX' }).click();
    expect(await transfer.getByLabel('Amount').inputValue()).toBe('100');
    await transfer.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'Transfer successful');
    await noDialog(page);
    await expectCard(page, 'Spot USDT (Transferable)', '10,000.00');
    await expectCard(page, 'Futures USDT (Transferable)', '0.00');

    await context.close();
  });

  it('swaps an asset of the demo account to USDT', async () => {
    const context = await newContext(app.browser, app.server.url);
    const page = await context.newPage();
    const session = await logIn(context, demo.email, demo.password);
    await openSignedIn(page, session, '/mywallet');
    const spotAssets = page.getByRole('table', { name: 'Spot assets' });
    await spotAssets.getByRole('cell', { name: 'SOL', exact: true }).waitFor();
    // The demo account may run bots, so its USDT is whatever it is now.
    await expectCard(page, 'Spot USDT (Transferable)', 'USDT');
    const spotBefore = await cardNumber(page, 'Spot USDT (Transferable)');
    const solRow = spotAssets
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'SOL', exact: true }) });
    const solBefore = await solRow.textContent();

    await page.getByRole('button', { name: 'Swap SOL to USDT' }).click();
    const swap = page.getByRole('dialog', { name: 'Swap to USDT' });
    await swap.waitFor();
    await swap.getByLabel('Amount (SOL)').fill('0');
    await swap.getByRole('button', { name: 'Swap', exact: true }).click();
    await swap.getByText('Enter a valid amount').waitFor();
    await swap.getByRole('button', { name: 'Swap all SOL' }).click();
    const available = ((await swap.getByTestId('swap-available').textContent()) ?? '').replaceAll(',', '');
    expect(Number(await swap.getByLabel('Amount (SOL)').inputValue())).toBe(Number(available));
    await expect.poll(() => swap.getByTestId('swap-equivalent').textContent()).toMatch(/^≈ [\d,]+\.\d{2}$/);
    await swap.getByRole('button', { name: 'Swap', exact: true }).click();
    await toast(page, 'Swap successful');
    await noDialog(page);
    // SOL trades near 180 USDT in the simulation: 50 USDT a coin is a safe floor for what came in.
    await expect
      .poll(() => cardNumber(page, 'Spot USDT (Transferable)'))
      .toBeGreaterThan(spotBefore + Number(available) * 50);
    // The SOL row goes (or, if a demo bot holds some, shows less).
    await expect
      .poll(async () => (await solRow.count()) === 0 || (await solRow.textContent()) !== solBefore)
      .toBe(true);
    await context.close();
  });

  it('takes screenshots of the wallet, its Transfer and Swap dialogs, API Setting and the Start Bot chart in both themes at 1280 and 390 px for review', {
    timeout: 300_000,
  }, async () => {
    for (const viewport of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
      const width = VIEWPORTS[viewport].width;
      const context = await newContext(app.browser, app.server.url, viewport);
      const page = await context.newPage();
      const session = await logIn(context, demo.email, demo.password);
      await openSignedIn(page, session, '/mywallet');
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(page, theme);
        await page.goto('/mywallet');
        // A table where it fits; on a phone a line per asset.
        const spotAssets = page.getByRole(width > 480 ? 'table' : 'list', { name: 'Spot assets' });
        await spotAssets.getByText('BTC', { exact: true }).first().waitFor();
        await expectCard(page, 'Total USDT', 'USDT');
        await shoot(page, `wallet-${theme}-${width}`);

        await page.getByRole('button', { name: 'Transfer' }).click();
        const transfer = page.getByRole('dialog', { name: 'Internal Transfers' });
        await transfer.getByLabel('Amount').fill('250');
        await shootDialog(page, `wallet-transfer-${theme}-${width}`);
        await page.keyboard.press('Escape');
        await noDialog(page);

        await page.getByRole('button', { name: 'Swap BTC to USDT' }).click();
        const swap = page.getByRole('dialog', { name: 'Swap to USDT' });
        await swap.getByRole('button', { name: 'Swap all BTC' }).click();
        await expect.poll(() => swap.getByTestId('swap-equivalent').textContent()).toMatch(/^≈/);
        await shootDialog(page, `wallet-swap-${theme}-${width}`);
        await page.keyboard.press('Escape');
        await noDialog(page);

        await page.goto('/api-setting');
        await page.getByTestId('paper-notice').waitFor();
        await shoot(page, `api-setting-${theme}-${width}`);

        await page.goto('/startbot');
        await page.locator('canvas').first().waitFor();
        await expect.poll(() => page.getByRole('status', { name: 'Loading chart' }).count()).toBe(0);
        await transitionsDone(page);
        await shoot(page, `startbot-chart-${theme}-${width}`);
      }
      await context.close();
    }
  });
});
