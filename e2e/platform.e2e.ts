import { platformMessages as m } from '@gridbot/shared';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { type Address, getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext, setTheme, shoot, VIEWPORTS } from './support/browser';
import { type NewUser, newUser, setUpJourney, signUpThroughUi, watchPage } from './support/journey';
import { startTestChain, type TestChain } from './support/test-chain';

// The journey: a referred user signs up with ?ref=, deposits (via the test chain), subscribes, and the
// referrer sees the reward in Referral Program; the referrer swaps part of it to the USDT wallet and requests a
// withdrawal; an administrator approves it and the user sees SENT with a hash. Screenshots of every platform
// page in both themes at 1280 and 390 px.
const CONFIRMATIONS = 2;
const MNEMONIC = 'test test test test test test test test test test test junk';
const ADMIN = newUser('admin');
const REFERRER = newUser('alice');
const REFERRED = newUser('bob');
// Seeded plan 'Pro': 500 USDT, profit limit 2,000; level 1 pays 10 % → 50 USDT of rewards to the referrer.
const PLAN = { name: 'Pro', price: '500', reward: '50' };
const SWAP = '15';
const WITHDRAW = '20';
const WITHDRAW_FEE = '1';

/** The address with the case of one letter flipped (still mixed case), so its checksum is wrong. */
function wrongChecksum(address: string): string {
  const hex = address.slice(2);
  const upper = [...hex].filter((c) => /[A-F]/.test(c)).length;
  const lower = [...hex].filter((c) => /[a-f]/.test(c)).length;
  // Flip a letter of the more common case, so the result stays mixed.
  const at = [...hex].findIndex((c) => (upper > lower ? /[A-F]/ : /[a-f]/).test(c));
  const c = hex.charAt(at);
  const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
  return `0x${hex.slice(0, at)}${flipped}${hex.slice(at + 1)}`;
}

let chain: TestChain;

async function see(page: Page, target: string | RegExp | Locator, timeout = 15_000) {
  const locator =
    typeof target === 'string' || target instanceof RegExp
      ? page.getByText(target, { exact: typeof target === 'string' }).first()
      : target;
  try {
    await locator.waitFor({ timeout });
  } catch (error) {
    await shoot(
      page,
      `platform-failure-${String(target)
        .slice(0, 30)
        .replace(/[^a-z0-9]+/gi, '-')}`,
    );
    console.error(`URL ${page.url()}\n${app.server.output().slice(-3000)}`);
    throw error;
  }
}

/** The text of a platform stat card (role group named by its label). */
async function card(page: Page, label: string): Promise<string> {
  return (await page.getByRole('group', { name: label }).textContent()) ?? '';
}

/** Sign-up through the UI (optionally from a referral link), in the dark theme the screenshots use. */
async function signUp(context: BrowserContext, who: NewUser, referralPath?: string): Promise<Page> {
  const page = await signUpThroughUi(app, context, who, referralPath);
  await setTheme(page, 'dark');
  return page;
}

beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(async () => {
  await chain?.stop();
});
// Started after the chain, whose addresses it needs.
const app = setUpJourney('platform', () => ({
  SUBSCRIPTION_ENABLED: 'true',
  ADMIN_EMAIL: ADMIN.email,
  CHAIN_RPC_URL: chain.rpcUrl,
  CHAIN_CONFIRMATIONS: String(CONFIRMATIONS),
  CHAIN_START_BLOCK: '0',
  // Scans only on 'make payment' and 'sync status', so what the journey sees does not race the poller.
  CHAIN_POLL_MS: '3600000',
  DEPOSIT_MNEMONIC: MNEMONIC,
  USDT_CONTRACT: chain.usdt,
  HOT_WALLET_PRIVATE_KEY: chain.hotWalletKey,
  FREE_PROFIT_LIMIT: '100',
  WITHDRAW_MIN: '10',
  WITHDRAW_FEE,
}));

describe('platform journey', () => {
  const contexts: Record<'admin' | 'referrer' | 'referred', BrowserContext | undefined> = {
    admin: undefined,
    referrer: undefined,
    referred: undefined,
  };
  const payoutAddress: Address = privateKeyToAccount(generatePrivateKey()).address;
  let payoutHash = '';

  it('refers, deposits on the chain, subscribes, rewards, swaps, withdraws and pays out', async () => {
    // The referrer signs up and finds the referral link.
    contexts.referrer = await newContext(app.browser, app.server.url);
    const referrer = await signUp(contexts.referrer, REFERRER);
    await referrer.goto('/referral-program');
    await see(referrer, 'My Referral ID');
    const link = (await referrer.getByText(/\/signup\?ref=/).textContent()) ?? '';
    const refPath = new URL(link).pathname + new URL(link).search;
    const userCode = new URL(link).searchParams.get('ref') ?? '';
    expect(userCode).toMatch(/^[A-Z0-9]{4,}$/);
    await see(referrer, 'No Records Found.');

    // The referred user arrives through the link: the referral ID is prefilled.
    contexts.referred = await newContext(app.browser, app.server.url);
    const probe = await contexts.referred.newPage();
    await probe.goto(refPath);
    await expect.poll(() => probe.getByLabel('Referral ID (optional)').inputValue()).toBe(userCode);
    await probe.close();
    const referred = await signUp(contexts.referred, REFERRED, refPath);

    // Deposit 500 USDT on the test chain to the user's own address.
    await referred.goto('/Wallet-deposit');
    await see(referred, 'Your deposit address (BEP-20)');
    const address = getAddress(((await referred.locator('code').first().textContent()) ?? '').trim());
    expect(await card(referred, 'USDT Wallet')).toContain('0.00');
    await chain.sendUsdt(address, PLAN.price);
    // One confirmation of two: not credited yet.
    await referred.getByRole('button', { name: 'sync status' }).click();
    await see(referred, m.synced(0));
    expect(await card(referred, 'USDT Wallet')).toMatch(/USDT Wallet\s*0\.00/);
    await chain.mine(CONFIRMATIONS - 1);
    await referred.getByRole('button', { name: 'sync status' }).click();
    await see(referred, m.synced(1));
    await expect.poll(() => card(referred, 'USDT Wallet')).toContain('500.00');
    await see(referred, referred.getByRole('table', { name: 'Deposit History' }).getByText('USDT'));
    // 'make payment' opens the listening window; its countdown survives a reload.
    await referred.getByRole('button', { name: 'make payment' }).click();
    await see(referred, referred.getByRole('timer', { name: 'Listening for your deposit' }));
    await referred.reload();
    await see(referred, referred.getByRole('timer', { name: 'Listening for your deposit' }));

    // Subscribe to Pro with the deposit.
    await referred.goto('/subscription');
    await referred.getByRole('button', { name: `Subscribe to ${PLAN.name}`, exact: true }).click();
    const confirm = referred.getByRole('dialog', { name: 'Confirm Subscription' });
    await see(referred, confirm);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await see(referred, m.subscribed);
    await expect.poll(() => card(referred, 'Subscription Status')).toContain('Active');
    // The free profit limit every wallet starts with plus the plan's.
    await expect.poll(() => card(referred, 'Profit Limit Remained')).toContain('$2,100.00');
    await expect.poll(() => card(referred, 'USDT Wallet')).toMatch(/USDT Wallet\s*0\.00/);
    const history = referred.getByRole('table', { name: 'Subscription History' });
    await see(referred, history.getByText(PLAN.name, { exact: true }));

    // The referrer sees the reward (level 1, 10 %) from the referred user.
    await referrer.goto('/referral-program');
    const rewards = referrer.getByRole('table', { name: 'Reward History' });
    await see(referrer, rewards.getByRole('cell', { name: REFERRED.username }));
    expect(await rewards.textContent()).toContain(`$${PLAN.reward}.00`);
    expect(await rewards.textContent()).toContain('10%');
    await see(referrer, `$${PLAN.reward}.00`);

    // Part of it to the USDT wallet, then a withdrawal of some of the rest.
    await referrer.getByRole('link', { name: 'Withdraw' }).click();
    await referrer.waitForURL('**/withdraw');
    await referrer.getByRole('button', { name: 'Transfer to USDT Wallet' }).click();
    const swap = referrer.getByRole('dialog', { name: 'Transfer to USDT Wallet' });
    await swap.getByLabel('Amount').fill('60');
    await swap.getByRole('button', { name: 'Transfer', exact: true }).click();
    await see(referrer, swap.getByText(m.amountAtMost(PLAN.reward)));
    await swap.getByLabel('Amount').fill(SWAP);
    await swap.getByRole('button', { name: 'Transfer', exact: true }).click();
    await see(referrer, m.swapDone);
    await swap.waitFor({ state: 'detached' });
    const left = Number(PLAN.reward) - Number(SWAP);
    await see(referrer, `USDT wallet: ${SWAP}.00 USDT`);
    await see(referrer, `${left}.00 USDT`);

    await referrer.getByLabel('Withdraw Amount (USDT)').fill(WITHDRAW);
    // A mixed-case address must carry its EIP-55 checksum.
    await referrer.getByLabel('Wallet Address (BEP-20)').fill(wrongChecksum(payoutAddress));
    await referrer.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await see(referrer, referrer.getByText(m.addressChecksum).first());
    await referrer.getByLabel('Wallet Address (BEP-20)').fill(payoutAddress);
    await referrer.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await see(referrer, m.withdrawRequested);
    const withdrawals = referrer.getByRole('table', { name: 'Withdraw History' });
    await see(referrer, withdrawals.getByText('PENDING', { exact: true }));
    await see(referrer, `${left - Number(WITHDRAW)}.00 USDT`);

    // The administrator approves it; the hot wallet pays amount − fee on the chain.
    contexts.admin = await newContext(app.browser, app.server.url);
    const admin = await signUp(contexts.admin, ADMIN);
    await admin.getByRole('link', { name: 'Admin' }).first().click();
    await admin.waitForURL('**/admin');
    const queue = admin.getByRole('table', { name: 'Withdrawals' });
    await see(admin, queue.getByText(REFERRER.username, { exact: true }));
    await queue.getByRole('button', { name: 'Approve' }).click();
    const approve = admin.getByRole('dialog', { name: 'Approve withdrawal' });
    await see(admin, approve);
    await approve.getByRole('button', { name: 'Mark as sent' }).click();
    await see(admin, m.withdrawalApproved);
    await admin.getByRole('tab', { name: 'Sent' }).click();
    await see(admin, queue.getByText('SENT', { exact: true }));
    payoutHash =
      (await queue
        .getByTitle(/^0x[0-9a-f]{64}$/)
        .first()
        .getAttribute('title')) ?? '';
    expect(payoutHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.receiptStatus(payoutHash as `0x${string}`)).toBe('success');
    expect(Number(await chain.usdtOf(payoutAddress))).toBe(Number(WITHDRAW) - Number(WITHDRAW_FEE));

    // The referrer sees SENT with the hash.
    await referrer.reload();
    await see(referrer, withdrawals.getByText('SENT', { exact: true }));
    const shown = withdrawals.getByRole('link', { name: new RegExp(payoutHash.slice(0, 10)) });
    expect(await shown.getAttribute('title')).toBe(payoutHash);
  }, 300_000);

  it('shows every platform page in both themes at 1280 and 390 px', async () => {
    const pages = [
      { name: 'subscription', path: '/subscription', who: 'referred', ready: PLAN.name },
      { name: 'wallet-deposit', path: '/Wallet-deposit', who: 'referred', ready: 'Deposit History' },
      { name: 'withdraw', path: '/withdraw', who: 'referrer', ready: 'SENT' },
      { name: 'referral-program', path: '/referral-program', who: 'referrer', ready: REFERRED.username },
      { name: 'admin', path: '/admin', who: 'admin', ready: 'Administration' },
    ] as const;
    for (const viewport of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
      for (const who of ['referred', 'referrer', 'admin'] as const) {
        const source = contexts[who];
        if (!source) throw new Error(`the journey did not sign up ${who}`);
        const context = await app.browser.newContext({
          baseURL: app.server.url,
          viewport: VIEWPORTS[viewport],
          storageState: await source.storageState(),
        });
        const page = await context.newPage();
        watchPage(page);
        for (const entry of pages.filter((p) => p.who === who)) {
          for (const theme of ['dark', 'light'] as const) {
            await page.goto(entry.path);
            await page.evaluate((value) => window.localStorage.setItem('theme', value), theme);
            await page.reload();
            await see(page, page.getByText(entry.ready, { exact: true }).first());
            if (entry.name === 'admin') {
              await page.getByRole('tab', { name: 'Sent' }).click();
              await see(page, page.getByText(REFERRER.username, { exact: true }).first());
            }
            await expect.poll(() => page.getByText('Loading...').count()).toBe(0);
            await shoot(page, `platform-${entry.name}-${theme}-${VIEWPORTS[viewport].width}`);
          }
        }
        await context.close();
      }
    }
  }, 300_000);

  it('shows every admin section tab at 768 px (they wrap instead of scrolling out of sight)', async () => {
    const source = contexts.admin;
    if (!source) throw new Error('the journey did not sign up the admin');
    const context = await app.browser.newContext({
      baseURL: app.server.url,
      viewport: { width: 768, height: 1024 },
      storageState: await source.storageState(),
    });
    const page = await context.newPage();
    watchPage(page);
    await page.goto('/admin');
    const list = page.getByRole('tablist', { name: 'Administration' });
    await see(page, list);
    const box = await list.boundingBox();
    const tabs = await list.getByRole('tab').all();
    expect(tabs.length).toBeGreaterThanOrEqual(6);
    for (const tab of tabs) {
      const inner = await tab.boundingBox();
      expect(inner && box && inner.x + inner.width <= box.x + box.width + 0.5).toBe(true);
    }
    await shoot(page, 'platform-admin-dark-768');
    await context.close();
    for (const signedIn of Object.values(contexts)) await signedIn?.close();
  });
});
