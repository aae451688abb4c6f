import { strategyMessages as m } from '@gridbot/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { shoot as fullShot, newContext, transitionsDone } from './support/browser';
import { inEveryLook, setUpJourney, watchPage } from './support/journey';

// The journey: create, edit and delete a 50-grid Multigrid and a 10-grid Scalping strategy in the
// browser, with Auto Fill, Clear, the spec's validation messages, the duplicate-name message and the ladder
// preview changing; screenshots of every strategy page in both themes at 1280 and 390 px.
const app = setUpJourney('strategy');
const { api } = app;
let session: { token: string; user: unknown };

/** A full-page screenshot from the top, with no focused field (fixed bars stay where they belong). */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await fullShot(page, name);
}

/** Signs a fresh user up through the API (code read from the dev mailbox). */
async function signUp() {
  const id = `strat${Date.now() % 1_000_000_000}`;
  const data = { email: `${id}@example.com`, username: id, contactNo: '+15551234567', password: 'secret123' };
  expect((await api('/api/signup', data)).status).toBe(200);
  const mails = (await api('/dev/mailbox')).body as unknown as { to: string; text: string }[];
  const otp = mails.find((mail) => mail.to === data.email)?.text.match(/\b(\d{6})\b/)?.[1];
  const verified = await api('/api/verify-otp', { ...data, otp });
  expect(verified.status).toBe(200);
  return { token: String(verified.body.token), user: verified.body.user };
}

/** A page signed in the way lib/session.ts keeps a session, in the given theme. */
async function signedInPage(context: BrowserContext, theme: 'dark' | 'light' = 'dark'): Promise<Page> {
  const page = await context.newPage();
  watchPage(page);
  await page.goto('/thankyou');
  await page.evaluate(
    ({ token, user, theme }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', JSON.stringify(user));
      localStorage.setItem('theme', theme);
    },
    { ...session, theme },
  );
  return page;
}

const cell = (page: Page, grid: number, column: string) =>
  page.getByLabel(`Grid ${grid} ${column}`, { exact: true });
const ladderText = (page: Page) => page.getByTestId('ladder-chart').locator('desc').textContent();
async function heading(page: Page, name: string) {
  try {
    await page.getByRole('heading', { name, exact: true }).waitFor();
  } catch (error) {
    await shoot(page, `strategy-failure-${name.replaceAll(' ', '-')}`);
    console.error(`URL ${page.url()}\n${app.server.output().slice(-3000)}`);
    throw error;
  }
}
const see = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

beforeAll(async () => {
  session = await signUp();
  // Every later call acts as the new user.
  app.token = session.token;
});

describe('strategies journey', () => {
  it('creates, edits and deletes a 50-grid Multigrid strategy', async () => {
    const context = await newContext(app.browser, app.server.url);
    const page = await signedInPage(context);
    await page.goto('/create-strategy');
    await heading(page, 'Create Strategy');
    await page.getByRole('link', { name: /Grid Strategy/ }).click();
    await page.waitForURL(/\/botcreate$/);
    await heading(page, 'Multigrid Strategy');

    const grids = page.getByLabel('Number of Grids');
    // Out of range, or not a whole number: what was typed stays in the field and is refused with the message.
    for (const bad of ['51', '0', 'ab', '2.5']) {
      await grids.fill(bad);
      expect(await grids.inputValue()).toBe(bad);
      await see(page, m.gridsMultigrid);
    }
    await grids.fill('50');
    await cell(page, 50, 'Allotted Amount (%)').waitFor();
    expect(await cell(page, 1, 'Buy (%) first condition').inputValue()).toBe('marketprice');
    expect(await cell(page, 1, 'Buy (%) first condition').isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Save Strategy' }).click();
    await see(page, m.nameRequired);
    await see(page, m.allottedRequired(1));
    // Cells beyond the first few messages are marked and carry their message as a tooltip.
    await expect
      .poll(() => cell(page, 2, 'Buy (%) first condition').getAttribute('title'))
      .toBe(m.buyRequired(2));
    await expect
      .poll(() => cell(page, 50, 'Take Profit (%) second condition').getAttribute('aria-invalid'))
      .toBe('true');
    await shoot(page, 'strategy-create-multigrid-errors-dark-1280');

    await page.getByRole('button', { name: 'Auto Fill' }).click();
    expect(await cell(page, 50, 'Allotted Amount (%)').inputValue()).toBe('2');
    expect(await cell(page, 2, 'Buy (%) first condition').inputValue()).toBe('1.2');
    expect(await cell(page, 2, 'Buy (%) second condition').inputValue()).toBe('0.2');
    expect(await cell(page, 7, 'Take Profit (%) first condition').inputValue()).toBe('1.2');
    expect(await cell(page, 7, 'Take Profit (%) second condition').inputValue()).toBe('0.2');
    const ladderBefore = await ladderText(page);
    expect(ladderBefore).toContain('50 grids');

    await cell(page, 2, 'Buy (%) first condition').fill('5');
    await expect.poll(() => ladderText(page)).not.toBe(ladderBefore);
    await cell(page, 1, 'Allotted Amount (%)').fill('10');
    await page.getByLabel('Strategy Name').fill('E2E Fifty Grid Ladder');
    await page.getByRole('button', { name: 'Save Strategy' }).click();
    await see(page, m.totalAllotted('108'));
    await cell(page, 3, 'Buy (%) first condition').fill('100');
    await see(page, m.buyRange(3));
    await cell(page, 4, 'Take Profit (%) second condition').fill('');
    await see(page, m.takeProfitDownRequired(4));
    await shoot(page, 'strategy-create-multigrid-total-dark-1280');

    await page.getByRole('button', { name: 'Clear' }).click();
    expect(await cell(page, 2, 'Buy (%) first condition').inputValue()).toBe('');
    expect(await cell(page, 50, 'Allotted Amount (%)').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Auto Fill' }).click();
    await cell(page, 2, 'Buy (%) first condition').fill('2.5');
    await page.getByRole('button', { name: 'Save Strategy' }).click();
    await see(page, m.saved);
    await page.waitForURL(/\/mystrategies$/);
    const card = page.getByTestId('strategy-card').filter({ hasText: 'E2E Fifty Gr...' });
    await card.waitFor();
    expect(await card.textContent()).toContain('50');

    // The same name in another case is refused with the spec's longer text.
    await page.goto('/botcreate');
    await page.getByLabel('Strategy Name').fill('e2e fifty grid LADDER');
    await page.getByLabel('Number of Grids').fill('1');
    await page.getByRole('button', { name: 'Auto Fill' }).click();
    await page.getByRole('button', { name: 'Save Strategy' }).click();
    await see(page, m.duplicateNameHint);
    await shoot(page, 'strategy-create-duplicate-dark-1280');

    await page.goto('/mystrategies');
    await page.getByRole('link', { name: 'Edit E2E Fifty Grid Ladder' }).click();
    await page.waitForURL(/\/editstrategy\/E2E%20Fifty%20Grid%20Ladder$/);
    await heading(page, 'Edit Grid Bot Strategy');
    expect(await page.getByLabel('Strategy Name').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByLabel('Number of Grids').inputValue()).toBe('50');
    expect(await cell(page, 2, 'Buy (%) first condition').inputValue()).toBe('2.5');
    expect(await cell(page, 1, 'Buy (%) second condition').isDisabled()).toBe(true);
    await cell(page, 50, 'Take Profit (%) first condition').fill('2.5');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await see(page, m.updated);
    await page.waitForURL(/\/mystrategies$/);
    const read = await api('/api/stratagybypara', { strategy_name: 'E2E Fifty Grid Ladder' });
    expect((read.body.strategy as { takeprofit_percentage: number[] }).takeprofit_percentage[49]).toBe(2.5);

    await page.getByRole('button', { name: 'Delete E2E Fifty Grid Ladder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete strategy?' });
    await dialog.waitFor();
    await shoot(page, 'strategy-delete-modal-dark-1280');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await see(page, m.deleted);
    await see(page, m.emptyTitle);
    await see(page, m.emptyLine);
    await shoot(page, 'strategy-list-empty-dark-1280');
    await context.close();
  });

  it('creates, edits and deletes a 10-grid Scalping strategy', async () => {
    const context = await newContext(app.browser, app.server.url);
    const page = await signedInPage(context);
    await page.goto('/createscalpingstrategy');
    await heading(page, 'Create Scalping Strategy');
    expect(await page.getByLabel('Take Profit (%)').inputValue()).toBe('3');
    await page.getByLabel('Number of Grids').fill('11');
    await see(page, m.gridsScalping);
    await page.getByLabel('Number of Grids').fill('10');
    await cell(page, 10, 'Allotted Amount (%)').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Strategy Name').fill('E2E Scalp Ten');
    await page.getByRole('button', { name: 'Save Strategy' }).click();
    await see(page, m.scalpTakeProfitRequired);
    await see(page, m.allottedRequired(1));
    await page.getByRole('button', { name: 'Auto Fill' }).click();
    expect(await page.getByLabel('Take Profit (%)').inputValue()).toBe('3');
    expect(await cell(page, 10, 'Allotted Amount (%)').inputValue()).toBe('10');
    const before = await ladderText(page);
    await page.getByLabel('Take Profit (%)').fill('6');
    await cell(page, 10, 'Buy Condition (%)').fill('8');
    await expect.poll(() => ladderText(page)).not.toBe(before);
    await shoot(page, 'strategy-create-scalping-filled-dark-1280');
    await page.getByRole('button', { name: 'Save Strategy' }).click();
    await see(page, m.saved);
    await page.waitForURL(/\/mystrategies\?tab=scalping$/);

    await page.getByRole('link', { name: 'Edit E2E Scalp Ten' }).click();
    await page.waitForURL(/\/scalpeditstrategy\/E2E%20Scalp%20Ten$/);
    await heading(page, 'Edit Scalping Strategy');
    expect(await page.getByLabel('Take Profit (%)').inputValue()).toBe('6');
    expect(await cell(page, 1, 'Buy Condition (%)').inputValue()).toBe('marketprice');
    await cell(page, 1, 'Allotted Amount (%)').fill('20');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await see(page, m.totalAllotted('110'));
    await cell(page, 1, 'Allotted Amount (%)').fill('10');
    await page.getByLabel('Take Profit (%)').fill('4');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await see(page, m.updated);
    await page.waitForURL(/\/mystrategies\?tab=scalping$/);
    const card = page.getByTestId('strategy-card').filter({ hasText: 'E2E Scalp Te' });
    await expect.poll(() => card.textContent()).toContain('Take Profit4%');

    await page.getByRole('button', { name: 'Delete E2E Scalp Ten' }).click();
    await page
      .getByRole('dialog', { name: 'Delete strategy?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await see(page, m.deleted);
    await see(page, m.emptyTitle);
    await context.close();
  });

  it('takes screenshots of the strategy chooser, editors, lists and a system strategy (50 and 10 grids) in both themes at 1280 and 390 px for review', async () => {
    const multi = Array.from({ length: 50 }, (_, i) => ({
      allottedAmountPercentagePerOrder: 2,
      buyPercentage: i === 0 ? 'marketprice' : 0.8,
      buyPercentageUp: i === 0 ? 'marketprice' : 0.2,
      takeProfitPercentage: 1.2,
      takeProfitPercentageDown: 0.2,
    }));
    const body = { strategyName: 'Screenshot Ladder 50', noOfGrids: 50, tableData: multi };
    expect((await api('/api/strategy', body)).status).toBe(200);
    const scalp = Array.from({ length: 10 }, (_, i) => ({
      allottedAmountPercentagePerOrder: [5, 5, 7, 8, 9, 10, 11, 13, 15, 17][i],
      buyPercentage: i === 0 ? 'marketprice' : 1.5,
    }));
    const scalpBody = {
      strategyName: 'Screenshot Scalp 10',
      noOfGrids: 10,
      tableData: scalp,
      takeProfitPercentage: 2,
    };
    expect((await api('/api/strategyscalp', scalpBody)).status).toBe(200);

    const pages: [string, string, string][] = [
      ['chooser', '/create-strategy', 'Create Strategy'],
      ['create-multigrid', '/botcreate', 'Multigrid Strategy'],
      ['create-scalping', '/createscalpingstrategy', 'Create Scalping Strategy'],
      ['list-multigrid', '/mystrategies', 'My Strategies'],
      ['list-scalping', '/mystrategies?tab=scalping', 'My Strategies'],
      ['edit-multigrid', '/editstrategy/Screenshot%20Ladder%2050', 'Edit Grid Bot Strategy'],
      ['edit-scalping', '/scalpeditstrategy/Screenshot%20Scalp%2010', 'Edit Scalping Strategy'],
      ['view-system', '/editstrategy/Deep%20Ladder%2020', 'Edit Grid Bot Strategy'],
    ];
    await inEveryLook(app, signedInPage, async (page, { theme, width }) => {
      for (const [name, path, title] of pages) {
        await page.goto(path);
        // One reload if a heavily loaded machine leaves the first paint blank.
        await page
          .getByRole('heading', { name: title, exact: true })
          .waitFor({ timeout: 15_000 })
          .catch(() => page.reload());
        await heading(page, title);
        if (name.startsWith('create')) {
          await page.getByLabel('Number of Grids').fill(name === 'create-multigrid' ? '50' : '10');
          await page.getByRole('button', { name: 'Auto Fill' }).click();
        }
        if (name.startsWith('list')) await page.getByTestId('strategy-card').first().waitFor();
        if (name.startsWith('edit') || name.startsWith('view'))
          await page.getByTestId('ladder-chart').waitFor();
        // Let toasts and transitions settle so the picture shows the page itself.
        await transitionsDone(page);
        await shoot(page, `strategy-${name}-${theme}-${width}`);
      }
    });
  }, 300_000);
});
