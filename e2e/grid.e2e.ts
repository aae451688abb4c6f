import { botMessages as m } from '@gridbot/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, shoot, transitionsDone } from './support/browser';
import { inEveryLook, type Json, logInAsDemo, setUpJourney } from './support/journey';

// The range grid journey on the default paper install (simulated market): the demo account opens Grid, lets
// Suggest pick a range from the pair's last 7 days, starts the grid, sees its resting orders on its page and
// among the dashboard's live bots, edits its stop-loss, stops it with a sale and finds it in History's Grid
// tab. Screenshots of each screen in both themes at 1280 and 390 px.
// The demo account runs bots on BTCUSDT, ETHUSDT and SOLUSDT (one bot per pair): the first free pair is taken.
const PAIRS = ['LINKUSDT', 'AVAXUSDT', 'DOTUSDT', 'ADAUSDT'];
const AMOUNT = '300';

const app = setUpJourney('grid');
const { api, see } = app;
const logIn = (context: BrowserContext, theme?: 'dark' | 'light') => logInAsDemo(app, context, theme);

interface GridInfo extends Json {
  status: string;
  stopReason: string | null;
  levels: number[];
  orders: unknown[];
  strategy: { stopLoss?: number };
}

const info = async (botID: string) => (await api('/api/gridbotinfo', { botID })).body as GridInfo;

/** The first pair none of the demo account's bots and grids runs on. */
async function freePair(): Promise<string> {
  const names = new Set<string>();
  for (const path of ['/api/botstatus', '/api/scalpbotstatus']) {
    for (const bot of ((await api(path)).body.bots ?? []) as { name: string }[]) names.add(bot.name);
  }
  for (const grid of (await api('/api/gridbots')).body as unknown as { symbol: string; status: string }[]) {
    if (grid.status !== 'Stopped') names.add(grid.symbol);
  }
  const pair = PAIRS.find((p) => !names.has(p));
  if (!pair) throw new Error(`a bot already runs on each of ${PAIRS.join(', ')}`);
  return pair;
}

/** The grid page's Open orders table has rows beyond its header. */
async function ordersShown(page: Page): Promise<void> {
  const rows = page.getByRole('table', { name: 'Open orders' }).getByRole('row');
  await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(1);
}

async function openGridPage(page: Page, botID: string): Promise<void> {
  await page.goto(`/grid-bot/${botID}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await ordersShown(page);
}

let botID = '';
let pair = '';

describe('range grid journey', () => {
  it('starts a grid from a suggestion, shows its orders, edits its stop-loss', async () => {
    const context = await newContext(app.browser, app.server.url);
    const page = await logIn(context);
    pair = await freePair();
    await page.getByRole('link', { name: 'Grid', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Start Grid' }).waitFor();
    await page.getByLabel('Pair').selectOption(pair);
    // The live price has come: the preview and Suggest can work from it.
    await page.getByTestId('grid-live-price').getByText(/\d/).waitFor();
    await page.getByLabel('Investment (USDT)').fill(AMOUNT);
    await page.getByRole('button', { name: 'Suggest 7 days' }).click();
    // "From the last 7 days: …", or "…, moved to the live price …: …" where the market stands apart from the
    // history's last close (the replayed market, whatever the day).
    await page.getByText(/^From the last 7 days[:,] /).waitFor({ timeout: 60_000 });
    const lower = Number(await page.getByLabel('Lower price').inputValue());
    const upper = Number(await page.getByLabel('Upper price').inputValue());
    expect(lower).toBeGreaterThan(0);
    expect(upper).toBeGreaterThan(lower);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Start this grid?' });
    await confirm.getByRole('button', { name: 'Confirm start' }).click();
    await page.waitForURL('**/grid-bot/*');
    botID = page.url().split('/grid-bot/')[1] ?? '';
    expect(botID).toMatch(/^[0-9a-f-]{36}$/);
    await see(page, m.botStarting);

    // Its resting orders: the simulated market's next tick places them.
    await expect
      .poll(async () => (await info(botID)).orders.length, { timeout: 60_000, interval: 1000 })
      .toBeGreaterThan(0);
    await page.reload();
    await ordersShown(page);

    // Edit its stop-loss: a tenth below the grid's lower price.
    const grid = await info(botID);
    const stopLoss = Number(((grid.levels[0] ?? lower) * 0.9).toPrecision(4));
    await page.getByRole('button', { name: 'Edit stops' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit stops and trailing' });
    await edit.getByLabel('Stop-loss price').fill(String(stopLoss));
    await edit.getByRole('button', { name: 'Save' }).click();
    await see(page, m.gridUpdated);
    await expect.poll(async () => (await info(botID)).strategy.stopLoss, { timeout: 15_000 }).toBe(stopLoss);
    await context.close();
  }, 300_000);

  it('shows the running grid on its page and on the dashboard in every look', async () => {
    expect(botID).not.toBe('');
    await inEveryLook(app, logIn, async (page, { theme, width }) => {
      const card = page.getByRole('link', {
        name: new RegExp(`^${pair.replace('USDT', '/USDT')} Spot grid, Live`),
      });
      await card.waitFor();
      await transitionsDone(page);
      await shoot(page, `grid-dashboard-${theme}-${width}`);
      await card.click();
      await page.waitForURL(`**/grid-bot/${botID}`);
      await openGridPage(page, botID);
      await transitionsDone(page);
      await shoot(page, `grid-running-${theme}-${width}`);
      await page.getByRole('button', { name: 'Edit stops' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit stops and trailing' });
      await edit.getByLabel('Stop-loss price').waitFor();
      await transitionsDone(page);
      await shoot(page, `grid-edit-${theme}-${width}`);
      await edit.getByRole('button', { name: 'Cancel' }).click();
    });
  }, 600_000);

  it('stops the grid with a sale and lists it in History', async () => {
    expect(botID).not.toBe('');
    const context = await newContext(app.browser, app.server.url);
    const page = await logIn(context);
    await openGridPage(page, botID);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Stop this grid?' });
    await dialog.getByRole('button', { name: `Stop & sell ${pair.replace(/USDT$/, '')}` }).click();
    await page
      .getByText(m.stoppedSold, { exact: true })
      .or(page.getByText(m.stopRequested, { exact: true }))
      .first()
      .waitFor();
    await expect.poll(async () => (await info(botID)).status, { timeout: 60_000 }).toBe('Stopped');
    expect((await info(botID)).stopReason).toBe('manual_sell');
    await context.close();

    await inEveryLook(app, logIn, async (page, { theme, width }) => {
      await page.goto('/history');
      await page.getByRole('tab', { name: 'Grid', exact: true }).click();
      // The row (a table at 1280 px, a card at 390), not the Reason filter's option of the same words.
      const tab = page.getByRole('tabpanel');
      await tab.getByText('Stopped and sold by you').first().waitFor();
      await tab.getByText(pair.replace('USDT', '/USDT')).first().waitFor();
      await transitionsDone(page);
      await shoot(page, `grid-history-${theme}-${width}`);
    });
  }, 600_000);
});
