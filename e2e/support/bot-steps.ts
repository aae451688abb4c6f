import { botMessages } from '@gridbot/shared';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Journey } from './journey';

// The steps the bot journeys share: strategies with small steps, the Start Bot form, a bot's page, its fills.

export type BotKind = 'Multigrid' | 'Scalping';

/** What the Start Bot form is filled in with. */
export interface BotToStart {
  pair: string;
  strategy: string;
  amount: string;
  /** Scalping (futures) only. */
  leverage?: string;
}

/**
 * A 3-grid Multigrid and/or Scalping strategy whose grids are `stepPct` apart and take profit at `stepPct`:
 * on the replayed market the bots buy and sell within seconds. A name taken already (409) is accepted only
 * where `existing: 'ok'` (files that share the seeded demo account between tests).
 */
export async function createFastStrategies(
  journey: Pick<Journey, 'api'>,
  names: { multigrid?: string; scalping?: string },
  options: { stepPct?: string; existing?: 'ok' | 'refused' } = {},
): Promise<void> {
  const step = options.stepPct ?? '0.1';
  const accepted = options.existing === 'ok' ? [200, 409] : [200];
  const grids = [40, 30, 30];
  if (names.multigrid) {
    const multigrid = await journey.api('/api/strategy', {
      strategyName: names.multigrid,
      noOfGrids: 3,
      tableData: grids.map((alloc, i) => ({
        gridNo: i + 1,
        allottedAmountPercentagePerOrder: String(alloc),
        buyPercentage: i === 0 ? 'marketprice' : step,
        buyPercentageUp: i === 0 ? 'marketprice' : '0',
        takeProfitPercentage: step,
        takeProfitPercentageDown: '0',
      })),
    });
    expect(accepted).toContain(multigrid.status);
  }
  if (names.scalping) {
    const scalping = await journey.api('/api/strategyscalp', {
      strategyName: names.scalping,
      noOfGrids: 3,
      takeProfitPercentage: step,
      tableData: grids.map((alloc, i) => ({
        gridNo: i + 1,
        allottedAmountPercentagePerOrder: String(alloc),
        buyPercentage: i === 0 ? 'marketprice' : step,
      })),
    });
    expect(accepted).toContain(scalping.status);
  }
}

/**
 * Fills the Start Bot form in and ticks the confirmation, without submitting. A Multigrid bot is chosen in
 * the form's own type select; a Scalping bot starts from its strategy's Start on My Strategies (the select
 * offers Scalping Grid only as 'coming soon...'), which opens the form with the type fixed.
 */
export async function fillStartForm(page: Page, kind: BotKind, bot: BotToStart): Promise<void> {
  if (kind === 'Scalping') {
    await page.goto('/mystrategies?tab=scalping');
    await page.getByRole('link', { name: `Start a bot with ${bot.strategy}`, exact: true }).click();
    await page.getByRole('heading', { name: 'Start New Bot' }).waitFor();
    await page.getByTestId('bot-type-fixed').waitFor();
  } else {
    await page.goto('/startbot');
    await page.getByRole('heading', { name: 'Start New Bot' }).waitFor();
    await page.getByLabel('Bot type').selectOption(kind);
  }
  await page.getByLabel('Category').selectOption(kind === 'Multigrid' ? 'Spot' : 'Future');
  await page.getByLabel('Pair').selectOption(bot.pair);
  await page.getByRole('option', { name: bot.strategy }).waitFor({ state: 'attached' });
  await page.getByLabel('Strategy').selectOption(bot.strategy);
  await page.getByLabel('Amount (USDT)').fill(bot.amount);
  if (kind === 'Scalping') await page.getByLabel('Leverage (x)').fill(bot.leverage ?? '1');
  await page.getByTestId('live-price').waitFor();
  // The form's notices above the checkbox (the start check, the amount's hints) arrive on their own time: a
  // tick given while one lands can hit the place the checkbox just left. A user ticks once the form stands;
  // the tick is given again if a late notice moved it all the same.
  await page.getByTestId('backtest-panel').waitFor();
  const agree = page.getByRole('checkbox');
  for (let attempt = 1; ; attempt++) {
    try {
      await agree.check({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Starts a bot through the Start Bot form and waits for the dashboard. */
export async function startBotThroughUi(
  journey: Pick<Journey, 'see'>,
  page: Page,
  kind: BotKind,
  bot: BotToStart,
): Promise<void> {
  await fillStartForm(page, kind, bot);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await journey.see(page, botMessages.botStarting);
  await page.waitForURL('**/dashboard');
}

/** Opens a running bot's page from the dashboard. */
export async function openBot(page: Page, pair: string, kind: BotKind): Promise<void> {
  await page.goto('/dashboard');
  const label = `${pair.replace('USDT', '/USDT')} ${kind} bot`;
  await page.getByRole('link', { name: new RegExp(`^${label}`) }).click();
  await page.getByRole('heading', { name: `${pair.replace('USDT', '/USDT')} ${kind} Bot` }).waitFor();
}

/** Waits until the open bot page's Order Book shows a BUY and a SELL row (pushed, or on the 10 s poll). */
export async function waitForBuyAndSell(page: Page, timeoutMs = 60_000): Promise<void> {
  const table = page.getByRole('table', { name: 'Order Book' });
  await table.getByRole('cell', { name: 'BUY', exact: true }).first().waitFor({ timeout: timeoutMs });
  await table.getByRole('cell', { name: 'SELL', exact: true }).first().waitFor({ timeout: timeoutMs });
}
