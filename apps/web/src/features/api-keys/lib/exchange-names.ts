import { KEY_EXCHANGE_NAMES, KEY_EXCHANGES } from '@gridbot/shared';

/** The exchanges a key can be bound to, as a sentence says them: "Binance or Bybit". */
export function keyExchangeList(): string {
  const names = KEY_EXCHANGES.map((exchange) => KEY_EXCHANGE_NAMES[exchange]);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
