import { platformMessages as m } from '@gridbot/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, shoot, transitionsDone } from './support/browser';
import { inEveryLook, logInAsDemo, setUpJourney, watchPage } from './support/journey';

// The journey: the demo account (its referral reward seeded with subscriptions on) asks for two withdrawals;
// the administrator the demo seeds (admin@gridbot.local) approves one with the hash of a payout made by hand and
// rejects the other with a reason; the user sees the first SENT with its fee and the second REJECTED with the
// reason. platform.e2e.ts covers the paid-out-from-the-hot-wallet road with an administrator named by
// ADMIN_EMAIL; this one needs no chain. Screenshots of both sides in both themes at 1280 and 390 px.
const ADMIN = { email: 'admin@gridbot.local', password: 'admin1234' };
const FEE = '1';
const APPROVED = { amount: '12', address: '0x1111111111111111111111111111111111111111' };
const REJECTED = {
  amount: '10',
  address: '0x2222222222222222222222222222222222222222',
  reason: 'The address is not yours',
};
const PAYOUT_HASH = `0x${'ab'.repeat(32)}`;

const app = setUpJourney('withdrawal-review', {
  SUBSCRIPTION_ENABLED: 'true',
  WITHDRAW_MIN: '10',
  WITHDRAW_FEE: FEE,
});
const { see } = app;
const logIn = (context: BrowserContext, theme?: 'dark' | 'light') => logInAsDemo(app, context, theme);

/** Logs the seeded administrator in through the login page, past the disclaimer. */
async function logInAsAdmin(context: BrowserContext, theme: 'dark' | 'light' = 'dark'): Promise<Page> {
  const page = await context.newPage();
  watchPage(page);
  await page.goto('/dashboard');
  await page.evaluate((value) => window.localStorage.setItem('theme', value), theme);
  await page.goto('/dashboard');
  await see(page, 'Log in to your account');
  await page.getByLabel('Email Address or Username').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'LogIn' }).click();
  await page.waitForURL('**/dashboard');
  const disclaimer = page.getByRole('dialog', { name: 'Disclaimer' });
  const agree = disclaimer.getByRole('button', { name: 'Agree' });
  const heading = page.getByRole('heading', { name: 'Dashboard', exact: true });
  await heading.or(agree).first().waitFor();
  if (await agree.isVisible()) {
    await agree.click();
    await disclaimer.waitFor({ state: 'detached' });
  }
  return page;
}

async function requestWithdrawal(page: Page, amount: string, address: string): Promise<void> {
  await page.getByLabel('Withdraw Amount (USDT)').fill(amount);
  await page.getByLabel('Wallet Address (BEP-20)').fill(address);
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  await see(page, m.withdrawRequested);
}

/** The administrator's queue row of the request to `address`. */
const queueRow = (page: Page, address: string) =>
  page
    .getByRole('table', { name: 'Withdrawals' })
    .getByRole('row')
    .filter({ has: page.locator(`[title="${address}"]`) });

const historyRow = (page: Page, address: string) =>
  page
    .getByRole('table', { name: 'Withdraw History' })
    .getByRole('row')
    .filter({ has: page.locator(`[title="${address}"]`) });

describe('withdrawal review journey', () => {
  it('approves one withdrawal and rejects another; the user sees the fee and the reason', async () => {
    const userContext = await newContext(app.browser, app.server.url);
    const user = await logIn(userContext);
    await user.goto('/withdraw');
    await user
      .getByText(`A fee of ${FEE} USDT is kept from the amount; the address receives the rest.`)
      .waitFor();
    await requestWithdrawal(user, APPROVED.amount, APPROVED.address);
    await requestWithdrawal(user, REJECTED.amount, REJECTED.address);
    await historyRow(user, APPROVED.address).getByText('PENDING', { exact: true }).waitFor();

    const adminContext = await newContext(app.browser, app.server.url);
    const admin = await logInAsAdmin(adminContext);
    await admin.goto('/admin');
    await queueRow(admin, APPROVED.address).getByRole('button', { name: 'Approve' }).click();
    const approve = admin.getByRole('dialog', { name: 'Approve withdrawal' });
    await approve.getByLabel('Transaction hash').fill(PAYOUT_HASH);
    await approve.getByRole('button', { name: 'Mark as sent' }).click();
    await see(admin, m.withdrawalApproved);
    await approve.waitFor({ state: 'detached' });

    await queueRow(admin, REJECTED.address).getByRole('button', { name: 'Reject' }).click();
    const reject = admin.getByRole('dialog', { name: 'Reject withdrawal' });
    await reject.getByLabel('Reason (optional)').fill(REJECTED.reason);
    await reject.getByRole('button', { name: 'Reject and refund' }).click();
    await see(admin, m.withdrawalRejected);
    await adminContext.close();

    await user.reload();
    const sent = historyRow(user, APPROVED.address);
    await sent.getByText('SENT', { exact: true }).waitFor();
    await sent.getByText(`Fee $${FEE}.00`).waitFor();
    expect(await sent.getByRole('link').first().getAttribute('title')).toBe(PAYOUT_HASH);
    const refused = historyRow(user, REJECTED.address);
    await refused.getByText('REJECTED', { exact: true }).waitFor();
    await refused.getByText(`Reason: ${REJECTED.reason}`).waitFor();
    await userContext.close();

    await inEveryLook(app, logIn, async (page, { theme, width }) => {
      await page.goto('/withdraw');
      await page.getByText(`Reason: ${REJECTED.reason}`).first().waitFor();
      await page.getByText(`Fee $${FEE}.00`).first().waitFor();
      await transitionsDone(page);
      await shoot(page, `withdrawal-review-user-${theme}-${width}`);
    });
    await inEveryLook(app, logInAsAdmin, async (page, { theme, width }) => {
      await page.goto('/admin');
      await page.getByRole('tab', { name: 'Rejected' }).click();
      await page.getByText(REJECTED.reason).first().waitFor();
      await transitionsDone(page);
      await shoot(page, `withdrawal-review-admin-${theme}-${width}`);
    });
  }, 600_000);
});
