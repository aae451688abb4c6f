import { readFileSync } from 'node:fs';
import { botMessages, platformMessages, startReadinessMessages } from '@gridbot/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  type BotKind,
  type BotToStart,
  createFastStrategies,
  fillStartForm,
  openBot,
  startBotThroughUi,
} from './support/bot-steps';
import { newContext, shoot } from './support/browser';
import { newUser, REPLAY_MARKET, setUpJourney, signUpThroughUi, watchFailedGets } from './support/journey';

// A new user on a fresh default install (the paper exchange; the replayed market at high speed so bots fill
// within seconds): reaches a running spot bot and a running futures bot without ever entering an API key,
// exports the spot bot's fills as CSV and reads it, is refused a swap of the coins the bot holds (the bot
// named) and then swaps them once they are free, and starts bots until the free balance is used, the next
// start refused before anything is sent. Then the platform area end to end with a simulated deposit: a referred
// user deposits and subscribes, the referrer sees the reward and withdraws it, the administrator approves.
// No GET the pages make answers 4xx on the way.
const SPOT = { pair: 'XRPUSDT', strategy: 'Newcomer Grid 3', amount: '300' };
const FUTURES = { pair: 'BNBUSDT', strategy: 'Newcomer Scalp 3', amount: '300', leverage: '2' };
const BIG = { pair: 'ETHUSDT' };

// The administrator is whoever signs up with ADMIN_EMAIL; the rest is the default configuration.
const ADMIN = newUser('admin');
const app = setUpJourney('newcomer', { ...REPLAY_MARKET, ADMIN_EMAIL: ADMIN.email });
const { see } = app;

const createStrategies = () =>
  createFastStrategies(app, { multigrid: SPOT.strategy, scalping: FUTURES.strategy }, { stepPct: '0.3' });
const startBot = (page: Page, kind: BotKind, bot: BotToStart = kind === 'Multigrid' ? SPOT : FUTURES) =>
  startBotThroughUi(app, page, kind, bot);

/** Fills the Start Bot form in (without submitting); returns the free USDT the form shows. */
async function fillStartFormReadingFree(page: Page, kind: BotKind, bot: BotToStart): Promise<number> {
  await fillStartForm(page, kind, bot);
  const free = page.getByTestId('free-usdt');
  await expect.poll(async () => /\d/.test((await free.textContent()) ?? '')).toBe(true);
  return Number(((await free.textContent()) ?? '').replace(/[^\d.]/g, ''));
}

/** Moves `amount` USDT spot → futures through the wallet's Transfer dialog. */
async function transferToFutures(page: Page, amount: string) {
  await page.goto('/mywallet');
  await page.getByRole('button', { name: 'Transfer' }).click();
  const transfer = page.getByRole('dialog', { name: 'Internal Transfers' });
  await transfer.waitFor();
  expect(await transfer.getByTestId('transfer-from').textContent()).toBe('Spot');
  await transfer.getByLabel('Amount').fill(amount);
  await transfer.getByRole('button', { name: 'Confirm' }).click();
  await see(page, 'Transfer successful');
  await transfer.waitFor({ state: 'detached' });
}

/** Opens the wallet's swap dialog of `coin`. */
async function openSwap(page: Page, coin: string) {
  await page.goto('/mywallet');
  await page.getByRole('button', { name: `Swap ${coin} to USDT` }).click();
  const swap = page.getByRole('dialog', { name: 'Swap to USDT' });
  await swap.waitFor();
  return swap;
}

describe('a newcomer on the default install', () => {
  it('runs a spot and a futures bot without an API key, exports fills, swaps only free coins and starts only with free funds', async () => {
    const context = await newContext(app.browser, app.server.url);
    const page = await signUpThroughUi(app, context, newUser('newcomer'));
    const failedGets = watchFailedGets(page);

    // No key asked for: API Setting says the paper account needs none.
    await page.goto('/api-setting');
    await see(page, 'Paper trading: no API key needed');
    expect(await page.getByLabel('API Key').count()).toBe(0);

    // (a) A running spot bot and, after a transfer to futures, a running futures bot.
    await createStrategies();
    await startBot(page, 'Multigrid');
    // The futures wallet is empty: the form says so before anything is filled in, with the way out.
    await page.goto('/startbot');
    await page.getByLabel('Category').selectOption('Future');
    await expect
      .poll(() => page.getByTestId('start-blockers').textContent())
      .toContain(startReadinessMessages.futuresEmpty);
    await transferToFutures(page, '1000');
    await startBot(page, 'Scalping');
    await openBot(page, FUTURES.pair, 'Scalping');
    await see(page, 'Liq.Price');
    await shoot(page, 'newcomer-running-futures-dark-1280');
    await openBot(page, SPOT.pair, 'Multigrid');
    const book = page.getByRole('table', { name: 'Order Book' });
    await book.getByRole('cell', { name: 'BUY', exact: true }).first().waitFor({ timeout: 60_000 });
    await shoot(page, 'newcomer-running-spot-dark-1280');

    // (e) The bot's fills as CSV: one row per fill, the columns of the export.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const lines = readFileSync(file, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('date,pair,side,price,quantity,quote,fee,fee_asset,pnl,exchange');
    expect(lines.length).toBeGreaterThan(1);
    for (const row of lines.slice(1)) {
      const [date, pair, side, price, quantity] = row.split(',');
      expect(Number.isNaN(Date.parse(date ?? ''))).toBe(false);
      expect(pair).toBe(SPOT.pair);
      expect(['BUY', 'SELL']).toContain(side);
      expect(Number(price)).toBeGreaterThan(0);
      expect(Number(quantity)).toBeGreaterThan(0);
    }
    expect(lines.slice(1).some((row) => row.split(',')[2] === 'BUY')).toBe(true);

    // (b) The XRP the bot bought cannot be swapped away; the refusal names the bot.
    let swap = await openSwap(page, 'XRP');
    const held = ((await swap.getByTestId('swap-held').locator('span').textContent()) ?? '').replaceAll(
      ',',
      '',
    );
    expect(Number(held)).toBeGreaterThan(0);
    await swap.getByLabel('Amount (XRP)').fill(held);
    await swap.getByRole('button', { name: 'Swap', exact: true }).click();
    const refusal = swap.getByText(/^XRP is held by your bot .*Stop the bot first to use the rest\.$/);
    await refusal.waitFor();
    const refusalText = (await refusal.textContent()) ?? '';
    expect(refusalText).toContain(SPOT.pair);
    expect(refusalText).toContain(SPOT.strategy);
    await shoot(page, 'newcomer-swap-refused-dark-1280');
    await swap.getByRole('button', { name: 'Cancel' }).click();
    // Stopped without selling, its coins are free, and the same swap goes through.
    await openBot(page, SPOT.pair, 'Multigrid');
    await page.getByRole('button', { name: 'Stop Bot' }).click();
    await page
      .getByRole('dialog', { name: 'Confirm Stop Bot' })
      .getByRole('button', { name: 'Stop', exact: true })
      .click();
    await see(page, botMessages.stopped);
    await page.waitForURL('**/dashboard');
    swap = await openSwap(page, 'XRP');
    await swap.getByRole('button', { name: 'Swap all XRP' }).click();
    expect(Number(await swap.getByLabel('Amount (XRP)').inputValue())).toBeGreaterThan(0);
    await swap.getByRole('button', { name: 'Swap', exact: true }).click();
    await see(page, 'Swap successful');

    // (c) A bot takes all but a little of the free spot balance; the next start is refused in the form,
    // before anything is sent.
    const free = await fillStartFormReadingFree(page, 'Multigrid', {
      ...BIG,
      strategy: SPOT.strategy,
      amount: '100',
    });
    expect(free).toBeGreaterThan(1000);
    await page.getByLabel('Amount (USDT)').fill(String(Math.floor(free - 50)));
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await see(page, botMessages.botStarting);
    await page.waitForURL('**/dashboard');
    const left = await fillStartFormReadingFree(page, 'Multigrid', {
      pair: 'SOLUSDT',
      strategy: SPOT.strategy,
      amount: '300',
    });
    expect(left).toBeLessThan(100);
    const starts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/startbotdata'))
        starts.push(request.url());
    });
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page
      .getByText(
        new RegExp(`^${botMessages.insufficientBalance}: [\\d.,]+ USDT free in your spot wallet\\.$`),
      )
      .waitFor();
    expect(starts).toEqual([]);
    await shoot(page, 'newcomer-start-refused-dark-1280');

    // Nothing the pages loaded or polled on the way was refused (no 4xx from /api/pichart without keys).
    expect(failedGets).toEqual([]);
    await context.close();
  }, 600_000);

  it('deposits (simulated), subscribes, rewards the referrer, withdraws and is approved', async () => {
    // Seeded plan 'Pro': 500 USDT; level 1 pays 10 % → 50 USDT of rewards to the referrer.
    const plan = { name: 'Pro', price: '500', reward: '50.00' };
    const referrerUser = newUser('referrer');
    const referredUser = newUser('referred');

    const referrerContext = await newContext(app.browser, app.server.url);
    const referrer = await signUpThroughUi(app, referrerContext, referrerUser);
    const referrerGets = watchFailedGets(referrer);
    await referrer.goto('/referral-program');
    await see(referrer, 'My Referral ID');
    const link = new URL((await referrer.getByText(/\/signup\?ref=/).textContent()) ?? '');

    const referredContext = await newContext(app.browser, app.server.url);
    const referred = await signUpThroughUi(app, referredContext, referredUser, link.pathname + link.search);
    const referredGets = watchFailedGets(referred);

    // The paper install offers a simulated deposit, clearly labelled, credited like a chain deposit.
    await referred.goto('/Wallet-deposit');
    const simulated = referred.getByTestId('simulated-deposit');
    await simulated.getByText('Paper install · simulated').waitFor();
    await simulated.getByLabel('Amount').fill(plan.price);
    await simulated.getByRole('button', { name: 'Deposit (simulated)' }).click();
    await expect
      .poll(async () => (await referred.getByRole('group', { name: 'USDT Wallet' }).textContent()) ?? '')
      .toContain('500.00');
    await shoot(referred, 'newcomer-simulated-deposit-dark-1280');

    await referred.goto('/subscription');
    await referred.getByRole('button', { name: `Subscribe to ${plan.name}`, exact: true }).click();
    const confirm = referred.getByRole('dialog', { name: 'Confirm Subscription' });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await see(referred, platformMessages.subscribed);
    await expect
      .poll(
        async () => (await referred.getByRole('group', { name: 'Subscription Status' }).textContent()) ?? '',
      )
      .toContain('Active');

    // The referrer's reward, moved to the USDT wallet and asked for.
    await referrer.goto('/referral-program');
    const rewards = referrer.getByRole('table', { name: 'Reward History' });
    await rewards.getByRole('cell', { name: referredUser.username }).waitFor();
    expect(await rewards.textContent()).toContain(`$${plan.reward}`);
    await referrer.getByRole('link', { name: 'Withdraw' }).click();
    await referrer.waitForURL('**/withdraw');
    await referrer.getByRole('button', { name: 'Transfer to USDT Wallet' }).click();
    const swap = referrer.getByRole('dialog', { name: 'Transfer to USDT Wallet' });
    await swap.getByLabel('Amount').fill('20');
    await swap.getByRole('button', { name: 'Transfer', exact: true }).click();
    await see(referrer, platformMessages.swapDone);
    await swap.waitFor({ state: 'detached' });
    await referrer.getByLabel('Withdraw Amount (USDT)').fill('20');
    await referrer.getByLabel('Wallet Address (BEP-20)').fill('0x000000000000000000000000000000000000dEaD');
    await referrer.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await see(referrer, platformMessages.withdrawRequested);
    const withdrawals = referrer.getByRole('table', { name: 'Withdraw History' });
    await withdrawals.getByText('PENDING', { exact: true }).waitFor();

    // The administrator approves it with the hash of the payout sent by hand (no hot wallet on this install).
    const adminContext = await newContext(app.browser, app.server.url);
    const admin = await signUpThroughUi(app, adminContext, ADMIN);
    await admin.getByRole('link', { name: 'Admin' }).first().click();
    await admin.waitForURL('**/admin');
    const queue = admin.getByRole('table', { name: 'Withdrawals' });
    await queue.getByText(referrerUser.username, { exact: true }).waitFor();
    await queue.getByRole('button', { name: 'Approve' }).click();
    const approve = admin.getByRole('dialog', { name: 'Approve withdrawal' });
    await approve.getByLabel('Transaction hash').fill(`0x${'ab'.repeat(32)}`);
    await approve.getByRole('button', { name: 'Mark as sent' }).click();
    await see(admin, platformMessages.withdrawalApproved);

    await referrer.reload();
    await withdrawals.getByText('SENT', { exact: true }).waitFor();
    await shoot(referrer, 'newcomer-withdrawal-sent-dark-1280');
    expect([...referrerGets, ...referredGets]).toEqual([]);
    await Promise.all([referrerContext.close(), referredContext.close(), adminContext.close()]);
  }, 300_000);
});
