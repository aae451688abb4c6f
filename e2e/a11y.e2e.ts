import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { transitionsDone, VIEWPORTS } from './support/browser';
import { type Journey, logInAsDemo, setUpJourney, watchPage } from './support/journey';

// axe-core on every screen of the app, in the dark and the light theme: no serious or critical violation
// (WCAG 2.1 A and AA rules plus axe's best practices). The rule's help, target and a snippet are printed for
// each one found, so a failure says where to look.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const app = setUpJourney('a11y');

const PUBLIC_SCREENS = [
  '/',
  '/signup',
  '/forgetpassword',
  '/resetpassword/not-a-real-token',
  '/thankyou',
  '/contact',
  '/no-such-page',
];

const SIGNED_IN_SCREENS = [
  '/dashboard',
  '/create-strategy',
  '/botcreate',
  '/createscalpingstrategy',
  '/startbot',
  '/sip',
  '/cycle',
  '/mywallet',
  '/api-setting',
  '/notifications',
  '/security',
  '/help',
  '/livebots',
  '/history',
  '/mystrategies',
  '/editstrategy/A11y%20Grid',
  '/admin',
  '/subscription',
  '/Wallet-deposit',
  '/withdraw',
  '/referral-program',
];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

async function axe(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> };
      }
    ).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html })),
    }));
  });
}

/** Waits until the screen has drawn its content (no loader, no skeleton) and its transitions have ended. */
async function settle(page: Page): Promise<void> {
  await page.locator('h1, [role="alert"]').first().waitFor({ timeout: 20_000 });
  await page
    .locator('[aria-busy="true"], .animate-pulse:not(.size-1\\.5)')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  await transitionsDone(page);
}

/**
 * Switches the page's theme in place, as the app follows a theme stored by another tab: the stored value and a
 * `storage` event (lib/theme.ts). One load of a screen then serves both themes' audits.
 */
async function switchTheme(page: Page, theme: 'dark' | 'light'): Promise<void> {
  await page.evaluate((value) => {
    window.localStorage.setItem('theme', value);
    window.dispatchEvent(new StorageEvent('storage', { key: 'theme' }));
  }, theme);
  await page.waitForFunction(
    (dark) => document.documentElement.classList.contains('dark') === dark,
    theme === 'dark',
  );
}

/** Audits the screen at `path` in the dark theme, then in the light one; the stored theme is dark again after. */
async function audit(page: Page, path: string, where: string, found: string[]): Promise<void> {
  await page.goto(path);
  await settle(page);
  for (const theme of ['dark', 'light'] as const) {
    if (theme === 'light') {
      await switchTheme(page, 'light');
      await transitionsDone(page);
    }
    const serious = (await axe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    for (const v of serious) {
      const nodes = v.nodes
        .slice(0, 3)
        .map((n) => `    ${n.target.join(' ')}  ${n.html.slice(0, 160)}`)
        .join('\n');
      found.push(`${theme}${where} ${path}: ${v.id} (${v.impact}) ${v.help}\n${nodes}`);
    }
  }
  await switchTheme(page, 'dark');
}

async function newPage(
  browser: Browser,
  journey: Journey,
  signedIn: boolean,
  viewport: keyof typeof VIEWPORTS = 'phone',
) {
  // Every audit starts in the dark theme; switchTheme turns it light in place.
  // bypassCSP: axe is injected as a script element, which a strict content security policy would refuse.
  const context = await browser.newContext({
    baseURL: journey.server.url,
    viewport: VIEWPORTS[viewport],
    bypassCSP: true,
  });
  if (signedIn) return { context, page: await logInAsDemo(journey, context, 'dark') };
  const page = await context.newPage();
  watchPage(page);
  await page.goto('/');
  await page.evaluate(() => window.localStorage.setItem('theme', 'dark'));
  return { context, page };
}

/** A multigrid strategy and a running bot, so the strategy editor and the running-bot page have data. */
async function startABot(journey: Journey): Promise<string> {
  const strategy = await journey.api('/api/strategy', {
    strategyName: 'A11y Grid',
    noOfGrids: 2,
    tableData: [50, 50].map((alloc, i) => ({
      gridNo: i + 1,
      allottedAmountPercentagePerOrder: String(alloc),
      buyPercentage: i === 0 ? 'marketprice' : '1',
      buyPercentageUp: i === 0 ? 'marketprice' : '0',
      takeProfitPercentage: '1',
      takeProfitPercentageDown: '0',
    })),
  });
  expect([200, 409]).toContain(strategy.status);
  const runningId = async () => {
    const running = await journey.api('/api/botstatus');
    const bots = (running.body.bots ?? []) as { id?: string; botID?: string; _id?: string }[];
    const bot = bots[0];
    return bot?.id ?? bot?.botID ?? bot?._id;
  };
  // The seeded demo account may have a bot running already; any running bot will do.
  let id = await runningId();
  if (!id) {
    const started = await journey.api('/api/startbotdata', {
      botType: 'Multigrid',
      category: 'Spot',
      selectPair: 'XRPUSDT',
      myStrategy: 'A11y Grid',
      amount: 200,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    id = await runningId();
  }
  expect(id).toBeTruthy();
  return String(id);
}

describe('accessibility of every screen (axe-core, 390 px and 1280 px)', () => {
  it('finds no serious or critical violation on the public screens, dark and light', async () => {
    const found: string[] = [];
    const { context, page } = await newPage(app.browser, app, false);
    for (const path of PUBLIC_SCREENS) await audit(page, path, '', found);
    await context.close();
    expect(found, found.join('\n')).toEqual([]);
  });

  it('finds no serious or critical violation on the signed-in screens, dark and light', async () => {
    const found: string[] = [];
    const { context, page } = await newPage(app.browser, app, true);
    const botPath = `/running-bot/${await startABot(app)}`;
    for (const path of [...SIGNED_IN_SCREENS, botPath]) await audit(page, path, '', found);
    await context.close();
    expect(found, found.join('\n')).toEqual([]);
  }, 600_000);

  // The wide layout has what the phone hides behind the menu: the sidebar with the current page marked.
  it('finds no serious or critical violation on the signed-in screens at 1280 px, dark and light', async () => {
    const found: string[] = [];
    const { context, page } = await newPage(app.browser, app, true, 'desktop');
    const botPath = `/running-bot/${await startABot(app)}`;
    for (const path of [...SIGNED_IN_SCREENS, botPath]) await audit(page, path, ' 1280 px', found);
    await context.close();
    expect(found, found.join('\n')).toEqual([]);
  }, 600_000);
});
