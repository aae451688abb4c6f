import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, readMailbox, shoot, transitionsDone } from './support/browser';
import { inEveryLook, logInAsDemo, setUpJourney, watchPage } from './support/journey';

// The journey, on the embedded default (the simulated market with the shipped Binance candles): a new user
// backtests a system strategy from Start Bot and sees the curve, the trade markers' chart and the figures; a
// take-profit edited in the strategy editor changes the backtest; a sweep runs and its best cell fills the table.
// Screenshots of the backtest on Start Bot, the editor and the sweep in both themes at 1280 and 390 px.
const app = setUpJourney('backtest');
const logIn = (context: BrowserContext, theme?: 'dark' | 'light') => logInAsDemo(app, context, theme);

async function signUpNewUser(context: BrowserContext): Promise<Page> {
  const stamp = Date.now();
  const user = {
    email: `bt${stamp}@example.com`,
    username: `bt_${stamp % 1_000_000}`,
    password: 'secret123',
  };
  const page = await context.newPage();
  watchPage(page);
  await page.goto('/signup?ref=');
  await page.getByLabel('Email Address').fill(user.email);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Contact No').fill('+15551234567');
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL(/\/verifyOtp/);
  const mail = await readMailbox(context, app.server.url, user.email);
  await page.getByLabel('Verification code').fill(mail.text.match(/\b(\d{6})\b/)?.[1] ?? '');
  await page.waitForURL(/\/dashboard/);
  await page.getByRole('button', { name: 'Agree' }).click();
  return page;
}

/** Start Bot with a system strategy on BTC/USDT spot and an amount: the backtest panel can run. */
async function fillStartBot(page: Page) {
  await page.goto('/startbot');
  await page.getByRole('heading', { name: 'Start New Bot' }).waitFor();
  await page.getByLabel('Bot type').selectOption('Multigrid');
  await page.getByLabel('Category').selectOption('Spot');
  await page.getByLabel('Pair').selectOption('BTCUSDT');
  await page.getByRole('option', { name: 'Steady Ladder 10' }).waitFor({ state: 'attached' });
  await page.getByLabel('Strategy').selectOption('Steady Ladder 10');
  await page.getByLabel('Amount (USDT)').fill('1000');
}

/** Start Bot with a system strategy on BTC/USDT spot, backtested. */
async function backtestFromStartBot(page: Page) {
  await fillStartBot(page);
  await page.getByTestId('backtest-run').click();
  await page.getByTestId('backtest-results').waitFor({ timeout: 60_000 });
}

const figure = async (page: Page, label: string) =>
  (await page
    .getByTestId('backtest-figures')
    .getByText(label, { exact: true })
    .locator('xpath=..')
    .locator('dd')
    .textContent()) ?? '';

/** The Multigrid editor with a 5-grid Auto Fill table, backtested. */
async function backtestInEditor(page: Page) {
  await page.goto('/botcreate');
  await page.getByLabel('Number of Grids').fill('5');
  await page.getByRole('button', { name: 'Auto Fill' }).click();
  await page.getByTestId('backtest-run').click();
  await page.getByTestId('backtest-results').waitFor({ timeout: 60_000 });
}

describe('backtest journey', () => {
  it('a new user backtests a system strategy from Start Bot and sees curve, trades and figures', async () => {
    const context = await newContext(app.browser, app.server.url);
    const page = await signUpNewUser(context);
    await backtestFromStartBot(page);
    await page.getByTestId('backtest-equity-chart').locator('canvas').first().waitFor();
    await page.getByTestId('backtest-trades-chart').locator('canvas').first().waitFor();
    await page.getByTestId('backtest-drawdown-chart').locator('canvas').first().waitFor();
    for (const label of [
      'Total PnL',
      'ROI',
      'APR',
      'Booked profit',
      'Unrealized',
      'Fees paid',
      'Max drawdown',
      'Sharpe',
      'Time in market',
      'Trades',
      'Stop',
    ]) {
      expect(await figure(page, label), label).not.toBe('');
    }
    // Real hourly candles of the shipped set: the strategy trades (each trade is a marker on the candle chart).
    expect(Number((await figure(page, 'Trades')).replace(/,/g, ''))).toBeGreaterThan(10);
    expect(await figure(page, 'Fees paid')).toMatch(/^\$[1-9]/);
    // The Start button is still below the backtest.
    const panelBox = await page.getByTestId('backtest-panel').boundingBox();
    const startBox = await page.getByRole('button', { name: 'Start', exact: true }).boundingBox();
    expect((startBox?.y ?? 0) > (panelBox?.y ?? 0)).toBe(true);
    await context.close();
  });

  it('the Start Bot form stands still while the backtest panel loads (390 px)', async () => {
    const context = await newContext(app.browser, app.server.url, 'phone');
    const page = await logIn(context);
    // The panel's code held back a second (a slow connection): its placeholder stands where it will be.
    await page.route(/\/backtest-panel-(?!placeholder)[\w-]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    await fillStartBot(page);
    // The checkbox's distance below the panel's top: what the panel's own height does to the form below it
    // (the form's notices above it arrive on their own time).
    const checkboxBelow = (panel: string) =>
      page.evaluate((testId) => {
        const top = (element: Element | null) => element?.getBoundingClientRect().top ?? Number.NaN;
        return (
          top(document.querySelector('input[type=checkbox]')) -
          top(document.querySelector(`[data-testid=${testId}]`))
        );
      }, panel);
    await page.getByTestId('backtest-panel-placeholder').waitFor();
    const whileLoading = await checkboxBelow('backtest-panel-placeholder');
    await page.getByTestId('backtest-source').waitFor();
    expect(await checkboxBelow('backtest-panel')).toBe(whileLoading);
    await context.close();
  });

  it('a futures backtest in the editor runs at the leverage picked and books funding (both themes, 390 px)', async () => {
    for (const theme of ['dark', 'light'] as const) {
      const context = await newContext(app.browser, app.server.url, 'phone');
      const page = await logIn(context, theme);
      await page.goto('/botcreate');
      await page.getByLabel('Number of Grids').fill('5');
      await page.getByRole('button', { name: 'Auto Fill' }).click();
      // BNB/USDT: the shipped hourly candles end in April 2025, inside the shipped funding rates.
      const panel = page.getByTestId('backtest-panel');
      await panel.getByLabel('Backtest pair').selectOption('BNBUSDT');
      await panel.getByLabel('Market').selectOption('future');
      await panel.getByLabel('Leverage (x)').fill('11');
      await app.see(page, 'Leverage cannot be more than 10x');
      expect(await page.getByTestId('backtest-run').isDisabled()).toBe(true);
      await panel.getByLabel('Leverage (x)').fill('3');
      await page.getByTestId('backtest-run').click();
      await page.getByTestId('backtest-results').waitFor({ timeout: 60_000 });
      expect(await figure(page, 'Funding')).toMatch(/[1-9]/);
      await transitionsDone(page);
      await shoot(page, `backtest-futures-editor-${theme}-390`);
      await context.close();
    }
  });

  // One login per look (both themes, 1280 and 390 px): Start Bot, then the editor, then the sweep.
  it('in every look: the Start Bot backtest; a take-profit edit changes the editor backtest; a sweep fills the table', async () => {
    await inEveryLook(app, logIn, async (page, look) => {
      await backtestFromStartBot(page);
      await transitionsDone(page);
      await shoot(page, `backtest-startbot-${look.theme}-${look.width}`);

      await backtestInEditor(page);
      const before = await figure(page, 'Total PnL');
      await page.locator('input[name="tableData.0.takeProfitPercentage"]').fill('4.5');
      await expect.poll(() => figure(page, 'Total PnL'), { timeout: 30_000 }).not.toBe(before);
      await shoot(page, `backtest-editor-${look.theme}-${look.width}`);

      await page.getByTestId('sweep-run').click();
      const choice = page.getByTestId('sweep-choice');
      await choice.waitFor({ timeout: 120_000 });
      const text = (await choice.textContent()) ?? '';
      const [, spacing, takeProfit] = /Spacing ([\d.]+) %, take-profit ([\d.]+) %/.exec(text) ?? [];
      await page.getByRole('button', { name: 'Use these values' }).click();
      expect(await page.locator('input[name="tableData.0.takeProfitPercentage"]').inputValue()).toBe(
        takeProfit,
      );
      expect(await page.locator('input[name="tableData.1.buyPercentage"]').inputValue()).toBe(spacing);
      await shoot(page, `backtest-sweep-${look.theme}-${look.width}`);
    });
    // Four looks, each with a 100-combination sweep in the browser's workers: about 65 s on a quiet machine, over
    // the default 120 s when the host is busy.
  }, 300_000);
});
