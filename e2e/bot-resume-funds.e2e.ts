import { botMessages as m } from '@gridbot/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createFastStrategies } from './support/bot-steps';
import { newContext, shoot, transitionsDone } from './support/browser';
import { inEveryLook, logInAsDemo, REPLAY_MARKET, setUpJourney } from './support/journey';

// The journeys: a Multigrid bot its pause price paused is resumed from its page after the confirmation says
// what it will do; funds are added to a running bot from its page. Screenshots of both dialogs in both
// themes at 1280 and 390 px.
const STRATEGY = 'E2E Fast 3';
const PAUSED = { pair: 'ADAUSDT', amount: 300 };
// The demo account runs bots of its own on some pairs (one bot per pair): the first free one is taken.
const FUNDED = { pairs: ['DOGEUSDT', 'XRPUSDT', 'LTCUSDT'], amount: 300 };

const app = setUpJourney('bot-resume-funds', REPLAY_MARKET);
const { api, see } = app;
const logIn = (context: BrowserContext, theme?: 'dark' | 'light') => logInAsDemo(app, context, theme);

async function startBot(pairs: readonly string[], amount: number): Promise<string> {
  for (const pair of pairs) {
    const started = await api('/api/startbotdata', {
      botType: 'Multigrid',
      category: 'Spot',
      selectPair: pair,
      myStrategy: STRATEGY,
      amount,
    });
    if (started.body.message === m.alreadyRunning(pair)) continue;
    expect(started.body.message).toBe(m.startCreated);
    return String(started.body.botId);
  }
  throw new Error(`a bot already runs on each of ${pairs.join(', ')}`);
}

async function botStatus(botID: string): Promise<string> {
  return String((await api('/api/botinfo', { botID })).body.status);
}

/**
 * Sets the pause price a hair above the live price, again while the replayed market has not reached it,
 * until the bot has sold and paused; the restart price stays far below, so it waits.
 */
async function pauseAtItsPausePrice(botID: string): Promise<void> {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    if ((await botStatus(botID)) === 'Pause') return;
    const live = Number((await api('/api/sltp', { botID })).body.liveprice);
    await api('/api/sltpedit', {
      botID,
      sellAllAndPausePrice: +(live * 1.0005).toFixed(4),
      restartPrice: +(live * 0.5).toFixed(4),
      stoplossPrice: null,
    });
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  throw new Error('the bot never reached its pause price');
}

/** Signs the demo account in (for `api`) and makes sure the fast strategy exists. */
async function ready(): Promise<void> {
  const context = await newContext(app.browser, app.server.url);
  await logIn(context);
  await context.close();
  await createFastStrategies(app, { multigrid: STRATEGY }, { existing: 'ok' });
}

async function openBotPage(page: Page, botID: string): Promise<void> {
  await page.goto(`/running-bot/${botID}`);
  await page.getByRole('heading', { name: 'Bot details' }).waitFor();
}

describe('resume and add funds journeys', () => {
  it('resumes a bot paused at its pause price after saying what it will do', async () => {
    await ready();
    const botID = await startBot([PAUSED.pair], PAUSED.amount);
    await pauseAtItsPausePrice(botID);

    let last: Page | undefined;
    await inEveryLook(app, logIn, async (page, { theme, width }) => {
      await openBotPage(page, botID);
      const banner = page.getByTestId('bot-reason');
      await banner.getByText('The bot is paused').waitFor();
      await shoot(page, `bot-paused-${theme}-${width}`);
      await banner.getByRole('button', { name: 'Resume', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Resume the bot now?' });
      await dialog.getByText(/buys grid 1 of ADA at the market price/).waitFor();
      await dialog
        .getByText(/pause price .* and restart price .* are removed with the pause they made/)
        .waitFor();
      await transitionsDone(page);
      await shoot(page, `bot-resume-dialog-${theme}-${width}`);
      if (width === 390 && theme === 'light') {
        await dialog.getByRole('button', { name: 'Resume now' }).click();
        await see(page, m.resumedFromPause);
        last = page;
      }
    });
    expect(last).toBeDefined();
    expect(await botStatus(botID)).toBe('Live');
    const limits = (await api('/api/sltp', { botID })).body;
    expect(limits).toMatchObject({ sell_all_and_pause_at_price: null, restart_at_price: null });
  }, 600_000);

  it('adds funds to a running bot from its page', async () => {
    await ready();
    const botID = await startBot(FUNDED.pairs, FUNDED.amount);
    let added = false;
    await inEveryLook(app, logIn, async (page, { theme, width }) => {
      await openBotPage(page, botID);
      await page.getByRole('button', { name: 'Add funds' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add funds' });
      await dialog.getByText(/^Available in your spot wallet: \$/).waitFor();
      await dialog.getByLabel('Amount (USDT)').fill('5');
      await dialog.getByRole('button', { name: 'Add funds' }).click();
      await dialog.getByText(m.addFundsMin(10)).waitFor();
      await dialog.getByLabel('Amount (USDT)').fill('150');
      // 300 + 150: every grid's share grows by half; once added, 150 more on 450 is a third.
      const growth = added ? '33.33%' : '50.00%';
      await dialog
        .getByText(`Every grid's share of the investment grows by ${growth}.`, { exact: false })
        .waitFor();
      await transitionsDone(page);
      await shoot(page, `bot-add-funds-dialog-${theme}-${width}`);
      if (!added) {
        await dialog.getByRole('button', { name: 'Add funds' }).click();
        await see(page, m.fundsAdded('150', '450'));
        added = true;
        await dialog.waitFor({ state: 'hidden' });
        await page.getByText('$450.00').first().waitFor();
        await shoot(page, `bot-funds-added-${theme}-${width}`);
      } else {
        await dialog.getByRole('button', { name: 'Cancel' }).click();
      }
    });
    expect((await api('/api/botinfo', { botID })).body.investment).toBe(450);
  }, 600_000);
});
