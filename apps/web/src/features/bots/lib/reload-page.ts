import { toast } from '../../../lib/toast';

// Written before the reload, read by the page that loads after it (the same tab only).
const AFTER_RELOAD_KEY = 'toast-after-reload';

/**
 * docs/spec/02-bots-wallet-account.md §8: the page reloads after the overbuy and profit book saves; a moment
 * later, so the toast is seen. The success is shown once more when the page is back, so a reload that comes
 * before the toast was read (a slow machine, a glance away) does not take the answer with it.
 */
export function reloadPageSoon(success: string, delayMs = 900): void {
  sessionStorage.setItem(AFTER_RELOAD_KEY, success);
  window.setTimeout(() => window.location.reload(), delayMs);
}

/** Shows the success a reload interrupted (once); called when the signed-in shell mounts. */
export function showSuccessFromBeforeReload(): void {
  const message = sessionStorage.getItem(AFTER_RELOAD_KEY);
  if (message === null) return;
  sessionStorage.removeItem(AFTER_RELOAD_KEY);
  toast.success(message);
}
