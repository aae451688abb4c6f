/**
 * Deterministic client order id of a bot's intent (docs/trading-rules.md §3, docs/contributing.md §2): the bot id packed to 22 base64url
 * characters, a dash and the intent sequence in base 36 — never random, and within Binance's 36-character
 * limit, so a resend after a crash carries the very same id.
 */
export function clientOrderIdOf(botId: string, seq: number): string {
  const packed = Buffer.from(botId.replaceAll('-', ''), 'hex').toString('base64url');
  return `${packed}-${seq.toString(36)}`;
}

const PACKED = /^[A-Za-z0-9_-]{22}-[0-9a-z]+$/;

/**
 * The bot id packed into a bot's client order id, or undefined when the id is not a bot's (an order placed on
 * the exchange's own site, a close from the Positions panel): what tells whose an open order is.
 */
export function botIdOfClientOrderId(clientOrderId: string): string | undefined {
  if (!PACKED.test(clientOrderId)) return undefined;
  const hex = Buffer.from(clientOrderId.slice(0, 22), 'base64url').toString('hex');
  if (hex.length !== 32) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
