/**
 * Deterministic client order id of a bot's intent (docs/trading-rules.md §3, docs/contributing.md §2): the bot id packed to 22 base64url
 * characters, a dash and the intent sequence in base 36 — never random, and within Binance's 36-character
 * limit, so a resend after a crash carries the very same id.
 */
export function clientOrderIdOf(botId: string, seq: number): string {
  const packed = Buffer.from(botId.replaceAll('-', ''), 'hex').toString('base64url');
  return `${packed}-${seq.toString(36)}`;
}
