import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's chromium, headless, with the flags this machine's closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

export async function newContext(
  browser: Browser,
  baseURL: string,
  viewport: keyof typeof VIEWPORTS = 'desktop',
) {
  return browser.newContext({ baseURL, viewport: VIEWPORTS[viewport] });
}

/** Sets the stored theme the way the header toggle does, then reloads so the page picks it up. */
export async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => window.localStorage.setItem('theme', value), theme);
  await page.reload();
}

/**
 * Waits until every finite CSS transition and animation of the page has ended (an endless one, a spinner or
 * a live dot, never does): what is audited or pictured then is the page at rest, not a frame of a fade.
 */
export async function transitionsDone(page: Page, timeoutMs = 10_000): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
        ),
    undefined,
    { timeout: timeoutMs },
  );
}

/** Full-page screenshot under test-results/screenshots (CI prints the folder). */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

/** The newest mail to `to` in the server's outbox (GET /dev/mailbox). */
export async function readMailbox(context: BrowserContext, baseURL: string, to: string) {
  const res = await context.request.get(`${baseURL}/dev/mailbox`);
  const mails = (await res.json()) as { to: string; subject: string; text: string }[];
  const mail = mails.find((m) => m.to === to);
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}
