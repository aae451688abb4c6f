import { botMessages as m } from '@gridbot/shared';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  type BotKind,
  createFastStrategies,
  openBot,
  startBotThroughUi,
  waitForBuyAndSell,
} from './support/bot-steps';
import { newContext, shoot, transitionsDone } from './support/browser';
import { fundFutures, inEveryLook, logInAsDemo, REPLAY_MARKET, setUpJourney } from './support/journey';

// The journey: on the replayed market at high speed, start a Multigrid spot bot and a Scalping
// futures bot from the UI, see BUY and SELL rows, edit SLTP (both price messages), set overbuy protection and
// profit book, stop one with sell and one without, find both in History; screenshots of every bot page in
// both themes at 1280 and 390 px.
const MULTIGRID = { pair: 'XRPUSDT', strategy: 'E2E Fast 3', amount: '300' };
const SCALPING = { pair: 'BNBUSDT', strategy: 'E2E Scalp 3', amount: '300', leverage: '2' };

const app = setUpJourney('bots', REPLAY_MARKET);
const { api, see } = app;
const logIn = (context: BrowserContext, theme?: 'dark' | 'light') => logInAsDemo(app, context, theme);

const createStrategies = () =>
  createFastStrategies(
    app,
    { multigrid: MULTIGRID.strategy, scalping: SCALPING.strategy },
    { existing: 'ok' },
  );
const startBot = (page: Page, kind: BotKind) =>
  startBotThroughUi(app, page, kind, kind === 'Multigrid' ? MULTIGRID : SCALPING);

async function livePriceInDialog(page: Page): Promise<number> {
  const text = await page.getByTestId('sltp-live-price').textContent();
  return Number((text ?? '').replaceAll(',', ''));
}

describe('bots journey', () => {
  it('starts, watches, edits and stops a Multigrid spot bot and a Scalping futures bot', async () => {
    const context = await newContext(app.browser, app.server.url);
    const page = await logIn(context);
    await createStrategies();
    await fundFutures(app, '1000');

    await startBot(page, 'Multigrid');
    await startBot(page, 'Scalping');

    // Multigrid: trades, SLTP messages, overbuy and profit book, stop and sell.
    await openBot(page, MULTIGRID.pair, 'Multigrid');
    await waitForBuyAndSell(page);
    await page.getByRole('button', { name: 'Edit Pause Price' }).click();
    const sltp = page.getByRole('dialog', { name: 'Edit Stop Loss Take Profit' });
    const live = await livePriceInDialog(page);
    expect(live).toBeGreaterThan(0);
    await sltp.getByLabel('Pause Price').fill(String(+(live * 0.5).toFixed(4)));
    await sltp.getByLabel('Stoploss Price').fill(String(+(live * 2).toFixed(4)));
    await sltp.getByRole('button', { name: 'Save Changes' }).click();
    await see(page, m.pauseAboveLive);
    await see(page, m.stoplossBelowLive);
    await shoot(page, 'bots-sltp-errors-dark-1280');
    await sltp.getByLabel('Pause Price').fill(String(+(live * 3).toFixed(4)));
    await sltp.getByLabel('Restart Price').fill(String(+(live * 0.9).toFixed(4)));
    await sltp.getByLabel('Stoploss Price').fill(String(+(live * 0.3).toFixed(4)));
    await sltp.getByRole('button', { name: 'Save Changes' }).click();
    await see(page, m.sltpUpdated);

    await page.getByRole('button', { name: 'Edit Overbuy Protection' }).click();
    const overbuy = page.getByRole('dialog', { name: 'Overbuy Grid Protection' });
    await overbuy.getByLabel('Overbuy Grid Protection').fill('5');
    await overbuy.getByRole('button', { name: 'Save Changes' }).click();
    await see(page, m.overbuyRange(2));
    await overbuy.getByLabel('Overbuy Grid Protection').fill('2');
    // docs/spec/02-bots-wallet-account.md §8: the page reloads after this save.
    let reloaded = page.waitForEvent('load');
    await overbuy.getByRole('button', { name: 'Save Changes' }).click();
    await see(page, m.overbuySaved);
    await reloaded;
    await see(page, 'Grid 2');

    await page.getByRole('button', { name: 'Edit Profit book & stop at' }).click();
    const book = page.getByRole('dialog', { name: 'Profit book & stop at (%)' });
    await book.getByLabel('Profit book & stop at (%)').fill('0');
    await book.getByRole('button', { name: 'Save Changes' }).click();
    await see(page, m.profitBookMin);
    await book.getByLabel('Profit book & stop at (%)').fill('500');
    reloaded = page.waitForEvent('load');
    await book.getByRole('button', { name: 'Save Changes' }).click();
    await see(page, m.profitBookSaved);
    await reloaded;
    await see(page, '500%');
    await shoot(page, 'bots-running-multigrid-dark-1280');

    await page.getByRole('button', { name: 'Stop Bot' }).click();
    await page.getByRole('dialog', { name: 'Confirm Stop Bot' }).waitFor();
    await shoot(page, 'bots-stop-spot-dark-1280');
    await page.getByRole('button', { name: `Stop & sell ${MULTIGRID.pair}` }).click();
    await see(page, m.stoppedSold);
    await page.waitForURL('**/dashboard');

    // Scalping futures: trades, liquidation price, stop without selling.
    await openBot(page, SCALPING.pair, 'Scalping');
    await waitForBuyAndSell(page);
    await see(page, 'Liq.Price');
    await shoot(page, 'bots-running-scalping-dark-1280');
    await page.getByRole('button', { name: 'Stop Bot' }).click();
    await page.getByRole('button', { name: 'Stop & Close Position' }).waitFor();
    await shoot(page, 'bots-stop-future-dark-1280');
    await page
      .getByRole('dialog', { name: 'Confirm Stop Bot' })
      .getByRole('button', { name: 'Stop', exact: true })
      .click();
    await see(page, m.stopped);
    await page.waitForURL('**/dashboard');

    // Both in History.
    await page.goto('/history');
    const multigridTable = page.getByRole('table', { name: 'Multigrid history' });
    await multigridTable.getByText('XRP/USDT').first().waitFor();
    await page.getByRole('tab', { name: 'Scalping' }).click();
    await page.getByRole('table', { name: 'Scalping history' }).getByText('BNB/USDT').first().waitFor();
    await context.close();
  }, 600_000);

  it('takes screenshots of the dashboard, Start Bot, History, Copy BOTs and the running bots in both themes at 1280 and 390 px for review', async () => {
    const running = ((await api('/api/botstatus')).body.bots ?? []) as { id: string }[];
    const scalping = ((await api('/api/scalpbotstatus')).body.bots ?? []) as { id: string }[];
    const pages: [string, string, string][] = [
      ['dashboard', '/dashboard', 'Dashboard'],
      ['startbot', '/startbot?pair=ETHUSDT&category=Spot&botType=Multigrid', 'Start New Bot'],
      ['history', '/history', 'History'],
      ['livebots', '/livebots', 'Top Running Bots'],
    ];
    if (running[0]) pages.push(['running-bot', `/running-bot/${running[0].id}`, 'Bot details']);
    if (scalping[0]) pages.push(['scalp-running-bot', `/scalp-running-bot/${scalping[0].id}`, 'Bot details']);
    await inEveryLook(app, logIn, async (page, { theme, width }) => {
      for (const [name, path, marker] of pages) {
        await page.goto(path);
        try {
          await page.getByRole('heading', { name: marker, exact: true }).first().waitFor();
        } catch (error) {
          await shoot(page, `bots-failure-${name}-${theme}-${width}`);
          throw error;
        }
        await page.waitForTimeout(1500);
        await shoot(page, `bots-${name}-${theme}-${width}`);
      }
      await page.goto('/livebots');
      // Copy BOTs ranks other users' bots that have run a day; a fresh install may have none yet.
      const ranked = page.getByRole('list', { name: 'Top running bots' });
      await ranked.or(page.getByText('No bots to show yet')).first().waitFor();
      if ((await ranked.count()) > 0) {
        await ranked.getByRole('button').first().click();
        await page.getByRole('dialog', { name: 'Start New Bot' }).waitFor();
        await transitionsDone(page);
        await shoot(page, `bots-copy-modal-${theme}-${width}`);
      }
    });
  }, 600_000);
});
