/** docs/spec/02-bots-wallet-account.md §8: the page reloads after the overbuy and profit book saves; a moment later, so the toast is seen. */
export function reloadPageSoon(delayMs = 900): void {
  window.setTimeout(() => window.location.reload(), delayMs);
}
