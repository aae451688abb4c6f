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
  await page.addScriptTag({ content: axeSource });
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

async function audit(page: Page, path: string, theme: string, found: string[]): Promise<void> {
  await page.goto(path);
  await settle(page);
  const serious = (await axe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of serious) {
    const where = v.nodes
      .slice(0, 3)
      .map((n) => `    ${n.target.join(' ')}  ${n.html.slice(0, 160)}`)
      .join('\n');
    found.push(`${theme} ${path}: ${v.id} (${v.impact}) ${v.help}\n${where}`);
  }
}

async function newPage(
  browser: Browser,
  journey: Journey,
  theme: 'dark' | 'light',
  signedIn: boolean,
  viewport: keyof typeof VIEWPORTS = 'phone',
) {
  // bypassCSP: axe is injected as a script element, which a strict content security policy would refuse.
  const context = await browser.newContext({
    baseURL: journey.server.url,
    viewport: VIEWPORTS[viewport],
    bypassCSP: true,
  });
  if (signedIn) return { context, page: await logInAsDemo(journey, context, theme) };
  const page = await context.newPage();
  watchPage(page);
  await page.goto('/');
  await page.evaluate((value) => window.localStorage.setItem('theme', value), theme);
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
    for (const theme of ['dark', 'light'] as const) {
      const { context, page } = await newPage(app.browser, app, theme, false);
      for (const path of PUBLIC_SCREENS) await audit(page, path, theme, found);
      await context.close();
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('finds no serious or critical violation on the signed-in screens, dark and light', async () => {
    const found: string[] = [];
    let botPath = '';
    for (const theme of ['dark', 'light'] as const) {
      const { context, page } = await newPage(app.browser, app, theme, true);
      if (!botPath) botPath = `/running-bot/${await startABot(app)}`;
      for (const path of [...SIGNED_IN_SCREENS, botPath]) await audit(page, path, theme, found);
      await context.close();
    }
    expect(found, found.join('\n')).toEqual([]);
  }, 600_000);

  // The wide layout has what the phone hides behind the menu: the sidebar with the current page marked.
  it('finds no serious or critical violation on the signed-in screens at 1280 px, dark and light', async () => {
    const found: string[] = [];
    for (const theme of ['dark', 'light'] as const) {
      const { context, page } = await newPage(app.browser, app, theme, true, 'desktop');
      const botPath = `/running-bot/${await startABot(app)}`;
      for (const path of [...SIGNED_IN_SCREENS, botPath]) await audit(page, path, `${theme} 1280 px`, found);
      await context.close();
    }
    expect(found, found.join('\n')).toEqual([]);
  }, 600_000);
});
