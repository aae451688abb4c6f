import { botMessages as m, positionMessages as pm } from '@gridbot/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createFastStrategies, fillStartForm } from './support/bot-steps';
import { newContext, shoot, transitionsDone } from './support/browser';
import {
  fundFutures,
  inEveryLook,
  logInAsDemo,
  REPLAY_MARKET,
  setUpJourney,
  watchPage,
} from './support/journey';

// The journeys a trader's trust rests on: a futures bot stopped without a sale leaves its position, which the
// Positions panel lists with its bot and closes reduce-only, giving the margin back and History the close; a
// stoploss above the live price is refused at the start; a bot its stoploss stopped says so on its page, on the
// dashboard and in History; Copy BOTs keeps its cards' order across refreshes. Screenshots in both themes at 1280 and 390 px.
const STRATEGY = 'E2E Trust 3';
// The demo account runs bots of its own on some pairs (one bot per pair and category): the first free one.
const FUTURES_PAIRS = ['SOLUSDT', 'ETHUSDT', 'BTCUSDT', 'XRPUSDT'];
const STOPLOSS_PAIRS = ['LTCUSDT', 'DOGEUSDT', 'ADAUSDT', 'SOLUSDT'];

const app = setUpJourney('trader-trust', REPLAY_MARKET);
const { api, see } = app;
/**
 * The demo account through the login page once; later looks reuse its session (the login answers at most ten
 * attempts per account in 15 minutes, and these journeys open many looks). When it fails, a screenshot of where
 * it stood and the end of the server's output.
 */
async function logIn(context: BrowserContext, theme: 'dark' | 'light' = 'dark'): Promise<Page> {
  try {
    if (!app.token) return await logInAsDemo(app, context, theme);
    await context.addInitScript(
      ([token, look]) => {
        window.localStorage.setItem('token', token);
        window.localStorage.setItem('theme', look);
      },
      [app.token, theme] as const,
    );
    const page = await context.newPage();
    watchPage(page);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    return page;
  } catch (error) {
    for (const [i, page] of context.pages().entries()) await shoot(page, `trust-login-failure-${i}`);
    console.error(app.server.output().slice(-3000));
    throw error;
  }
}

/** A full-page screenshot from the top, so the fixed header and dialogs sit where a reader sees them. */
async function shootTop(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await transitionsDone(page);
  await shoot(page, name);
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Signs the demo account in (for `api`) and makes sure the fast strategy exists. */
async function ready(): Promise<void> {
  if (!app.token) {
    const context = await newContext(app.browser, app.server.url);
    await logIn(context);
    await context.close();
  }
  await createFastStrategies(app, { multigrid: STRATEGY }, { existing: 'ok' });
}

async function startBot(
  pairs: readonly string[],
  category: 'Spot' | 'Future',
): Promise<{ botID: string; pair: string }> {
  for (const pair of pairs) {
    const started = await api('/api/startbotdata', {
      botType: 'Multigrid',
      category,
      selectPair: pair,
      myStrategy: STRATEGY,
      amount: 300,
      ...(category === 'Future' ? { leverage: 2 } : {}),
    });
    if (started.body.message === m.alreadyRunning(pair)) continue;
    expect(started.body.message).toBe(m.startCreated);
    return { botID: String(started.body.botId), pair };
  }
  throw new Error(`a bot already runs on each of ${pairs.join(', ')}`);
}

const botInfo = async (botID: string) => (await api('/api/botinfo', { botID })).body;

async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const value = await read();
    if (value !== undefined) return value;
    await pause(1000);
  }
  throw new Error(`waited ${timeoutMs} ms for ${what}`);
}

const futuresTransferable = async () => Number((await api('/api/futuresBalance')).body.futuresusdtAmount);

async function openBotPage(page: Page, botID: string): Promise<void> {
  await page.goto(`/running-bot/${botID}`);
  await page.getByRole('heading', { name: 'Bot details' }).waitFor();
}

/** The History row of `pair` in the Multigrid tab (the newest first). */
async function historyRow(page: Page, pair: string) {
  await page.goto('/history');
  // A table at 1280 px; at 390 px a list of cards.
  const rows = page
    .getByRole('table', { name: 'Multigrid history' })
    .getByRole('row')
    .or(page.getByRole('list', { name: 'Multigrid history' }).getByRole('listitem'));
  const row = rows.filter({ hasText: pair.replace('USDT', '/USDT') }).first();
  await row.waitFor();
  return row;
}

describe('trader trust journeys', () => {
  it('lists the position a futures bot left open with its bot, closes it reduce-only and History says so', async () => {
    await ready();
    await fundFutures(app, '1000');
    const { botID, pair } = await startBot(FUTURES_PAIRS, 'Future');
    await waitFor('the bot to buy', async () =>
      Number((await botInfo(botID)).purchased_qty) > 0 ? true : undefined,
    );

    // Stop without a sale, through the bot page.
    const context = await newContext(app.browser, app.server.url);
    const page = await logIn(context);
    await openBotPage(page, botID);
    await page.getByRole('button', { name: 'Stop Bot' }).click();
    const stop = page.getByRole('dialog', { name: 'Confirm Stop Bot' });
    await stop.getByRole('button', { name: 'Stop & Close Position' }).waitFor();
    await stop.getByRole('button', { name: 'Stop', exact: true }).click();
    await see(page, m.stopped);
    await context.close();
    await waitFor('the bot to stop', async () =>
      (await botInfo(botID)).status === 'Stopped' ? true : undefined,
    );

    const listed = (await api('/api/positions')).body.positions as {
      symbol: string;
      margin: string;
      bot: { botId: string; name: string } | null;
    }[];
    const position = listed.find((p) => p.symbol === pair);
    expect(position?.bot?.botId).toBe(botID);
    const botName = position!.bot!.name;
    const before = await futuresTransferable();

    let closed = false;
    await inEveryLook(app, logIn, async (page, { theme, width }) => {
      await page.goto('/mywallet');
      const row = page.getByTestId(`position-${pair}`);
      if (!closed) {
        await row.getByText(botName, { exact: false }).waitFor();
        await row.getByText('(stopped, position left open)').waitFor();
        await shootTop(page, `trust-position-left-open-${theme}-${width}`);
      }
      if (width === 390 && theme === 'light') {
        await row.getByRole('button', { name: `Close ${pair} position` }).click();
        const dialog = page.getByRole('dialog', { name: `Close the ${pair} position?` });
        await dialog.getByText(`The position was left by ${botName}.`, { exact: false }).waitFor();
        // The viewport only: a dialog's backdrop covers the screen, not a full page's length.
        await transitionsDone(page);
        await page.screenshot({
          path: `test-results/screenshots/trust-close-position-dialog-${theme}-${width}.png`,
        });
        await dialog.getByRole('button', { name: 'Close position' }).click();
        await see(page, pm.positionClosed);
        await row.waitFor({ state: 'detached' });
        closed = true;
      }
      if (closed) {
        await page.getByText('No open futures positions.').first().waitFor();
        await shootTop(page, `trust-position-closed-${theme}-${width}`);
      }
    });
    expect(closed).toBe(true);
    // The margin is back in the transferable futures balance, give or take the close's PnL and fee.
    const after = await futuresTransferable();
    // The replayed market moves fast (600×): allow a tenth of the margin for the PnL.
    expect(Math.abs(after - before - Number(position!.margin))).toBeLessThan(Number(position!.margin) / 10);

    await inEveryLook(app, logIn, async (page, { theme, width }) => {
      const row = await historyRow(page, pair);
      await row.getByText('Stopped by you').waitFor();
      expect(await row.getByText('Position left open').count()).toBe(0);
      await shootTop(page, `trust-history-position-closed-${theme}-${width}`);
    });
  }, 900_000);

  it('refuses to start a bot whose stoploss is above the live price', async () => {
    await ready();
    await inEveryLook(app, logIn, async (page, { theme, width }) => {
      await fillStartForm(page, 'Multigrid', { pair: 'XRPUSDT', strategy: STRATEGY, amount: '300' });
      const live = Number(
        ((await page.getByTestId('live-price').textContent()) ?? '').replace(/[^0-9.]/g, ''),
      );
      expect(live).toBeGreaterThan(0);
      await page.getByLabel('Stoploss Price').fill(String(Math.ceil(live * 1.5)));
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await see(page, m.stoplossBelowLive);
      await shootTop(page, `trust-start-stoploss-refused-${theme}-${width}`);
    });
  }, 600_000);

  it('shows why a bot its stoploss stopped: on its page, on the dashboard and in History', async () => {
    await ready();
    const { botID, pair } = await startBot(STOPLOSS_PAIRS, 'Spot');
    // A stoploss a hair below the live price, again while the replayed market has not fallen to it.
    await waitFor('the stoploss to stop the bot', async () => {
      const info = await botInfo(botID);
      if (info.status === 'Stopped') return info;
      if (info.status === 'Live') {
        const live = Number((await api('/api/sltp', { botID })).body.liveprice);
        await api('/api/sltpedit', {
          botID,
          sellAllAndPausePrice: null,
          restartPrice: null,
          stoplossPrice: +(live * 0.9995).toFixed(4),
        });
      }
      return undefined;
    });
    expect((await botInfo(botID)).stopReason).toBe('stoploss');

    await inEveryLook(app, logIn, async (page, { theme, width }) => {
      await openBotPage(page, botID);
      await page.getByTestId('bot-reason').getByText('Stopped by its stoploss price').waitFor();
      await shootTop(page, `trust-stoploss-bot-page-${theme}-${width}`);
      await page.goto('/dashboard');
      await page
        .getByRole('region', { name: /stopped by (itself|themselves)$/ })
        .getByText(`Your ${pair} Spot bot stopped: its stoploss price was reached.`)
        .waitFor();
      await shootTop(page, `trust-stoploss-dashboard-${theme}-${width}`);
      const row = await historyRow(page, pair);
      await row.getByText('Stopped by its stoploss price').waitFor();
      await shootTop(page, `trust-stoploss-history-${theme}-${width}`);
    });
  }, 600_000);

  it('keeps the Copy BOTs cards in their order over reloads and polls', async () => {
    await ready();
    const cards = (page: Page) =>
      page
        .getByRole('list', { name: 'Top running bots' })
        .getByRole('button', { name: /^Rank / })
        .evaluateAll((links) =>
          links.map((a) => (a.getAttribute('aria-label') ?? '').replace(/, ROI .*$/, '')),
        );
    await inEveryLook(app, logIn, async (page, { theme, width }) => {
      await page.goto('/livebots');
      await page
        .getByRole('list', { name: 'Top running bots' })
        .getByRole('button', { name: /^Rank / })
        .first()
        .waitFor({ timeout: 30_000 });
      const first = await cards(page);
      expect(first.length).toBeGreaterThan(0);
      await shootTop(page, `trust-copy-bots-${theme}-${width}`);
      if (width !== 1280 || theme !== 'dark') return;
      for (let refresh = 0; refresh < 3; refresh += 1) {
        await page.reload();
        await page
          .getByRole('list', { name: 'Top running bots' })
          .getByRole('button', { name: /^Rank / })
          .first()
          .waitFor({ timeout: 30_000 });
        expect(await cards(page)).toEqual(first);
      }
      for (let poll = 0; poll < 3; poll += 1) {
        await page.waitForResponse((r) => r.url().includes('/api/livebotdata'), {
          timeout: 20_000,
        });
        expect(await cards(page)).toEqual(first);
      }
    });
  }, 600_000);
});
