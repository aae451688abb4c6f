import { z } from 'zod';
import { SYMBOLS } from '../markets/market-rules';
import { walletMessages as m } from './wallet.messages';

/** A positive decimal amount, as a number or numeric string (forms send strings). */
export function positiveAmount(requiredMessage: string, invalidMessage: string) {
  return z
    .union([z.number(), z.string().trim()], { error: requiredMessage })
    .refine((v) => v !== '', requiredMessage)
    .transform((v) => String(v))
    .refine((v) => /^\d+(\.\d+)?$/.test(v) && Number(v) > 0 && Number.isFinite(Number(v)), invalidMessage);
}

/** The exchanges a member can bind a key of (API Setting); the key's exchange is where the bots trade. */
export const KEY_EXCHANGES = ['binance', 'bybit', 'okx'] as const;
export type KeyExchange = (typeof KEY_EXCHANGES)[number];
export const KEY_EXCHANGE_NAMES: Record<KeyExchange, string> = {
  binance: 'Binance',
  bybit: 'Bybit',
  okx: 'OKX',
};
/** Where a user's bots trade: the paper exchange, or the exchange of their bound key. */
export type Venue = 'paper' | KeyExchange;
/** The venue's name on the bot page and in History (rows and the fills CSV). */
export const VENUE_NAMES: Record<Venue, string> = { paper: 'Paper', ...KEY_EXCHANGE_NAMES };
const keyExchangeField = z.enum(KEY_EXCHANGES, { error: m.exchangeUnknown });

/** POST /api/apikeys: both keys to connect, both null to disconnect (docs/spec/01-core-screens.md §7). */
export const apiKeysInputSchema = z
  .strictObject({
    apiKey: z
      .string({ error: m.apiKeyRequired })
      .trim()
      .min(1, m.apiKeyRequired)
      .max(128, m.apiKeyMax)
      .nullable(),
    secretKey: z
      .string({ error: m.secretKeyRequired })
      .trim()
      .min(1, m.secretKeyRequired)
      .max(128, m.secretKeyMax)
      .nullable(),
    /** OKX keys only: the passphrase chosen when the key was made (OKX signs every request with it). */
    passphrase: z.string().trim().max(128, m.passphraseMax).optional(),
    /** The key's exchange; Binance when left out (the form before the choice existed sent none). */
    exchange: keyExchangeField.default('binance'),
    /** With two-factor sign-in on: the code, asked again before keys change. */
    code: z.string().trim().max(20).optional(),
  })
  .refine((v) => (v.apiKey === null) === (v.secretKey === null), {
    message: m.bothOrNeither,
    path: ['secretKey'],
  })
  .refine((v) => v.apiKey === null || v.exchange !== 'okx' || (v.passphrase ?? '') !== '', {
    message: m.passphraseRequired,
    path: ['passphrase'],
  });
export type ApiKeysInput = z.infer<typeof apiKeysInputSchema>;

/** The API Setting form: both keys required (disconnect is its own button). */
export const apiKeysFormSchema = z
  .object({
    exchange: keyExchangeField,
    apiKey: z.string().trim().min(1, m.apiKeyRequired).max(128, m.apiKeyMax),
    secretKey: z.string().trim().min(1, m.secretKeyRequired).max(128, m.secretKeyMax),
    /** Shown and required for OKX keys only. */
    passphrase: z.string().trim().max(128, m.passphraseMax).optional(),
  })
  .refine((v) => v.exchange !== 'okx' || (v.passphrase ?? '') !== '', {
    message: m.passphraseRequired,
    path: ['passphrase'],
  });
export type ApiKeysForm = z.infer<typeof apiKeysFormSchema>;

export const pairField = z
  .string({ error: m.pairRequired })
  .trim()
  .min(1, m.pairRequired)
  .transform((v) => v.toUpperCase().replace('/', ''))
  .refine((v) => SYMBOLS.includes(v), m.pairUnknown);

/** POST /api/liveprice and /api/futureliveprice. */
export const livePriceInputSchema = z.object({ pair: pairField });

/** GET /api/candles?symbol=&interval=&limit=&market= */
export const candlesQuerySchema = z.object({
  symbol: pairField,
  interval: z
    .enum(['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '1d'], { error: m.intervalInvalid })
    .default('15m'),
  limit: z.coerce.number().int().min(1).max(1000).default(300),
  market: z.enum(['spot', 'future']).default('spot'),
});
export type CandlesQuery = z.infer<typeof candlesQuerySchema>;

/** POST /api/transferspottofutures and /api/transferfuturestospot (docs/spec/02-bots-wallet-account.md §3 Transfer). */
export const transferInputSchema = z.object({
  from: z.enum(['Spot', 'Futures', 'spot', 'futures', 'SPOT', 'FUTURES'], { error: m.transferDirection }),
  to: z.enum(['Spot', 'Futures', 'spot', 'futures', 'SPOT', 'FUTURES'], { error: m.transferDirection }),
  coin: z.literal('USDT', { error: 'Only USDT can be transferred.' }).default('USDT'),
  amount: positiveAmount(m.amountRequired, m.amountPositive),
});
export type TransferInput = z.input<typeof transferInputSchema>;

/** POST /api/swaptousdt (docs/spec/02-bots-wallet-account.md §5 Swap: present, above 0, not above the available balance). */
export const swapInputSchema = z.object({
  asset: z
    .string({ error: m.assetRequired })
    .trim()
    .min(1, m.assetRequired)
    .max(20)
    .transform((v) => v.toUpperCase())
    .refine((v) => v !== 'USDT', m.swapUsdt),
  amount: positiveAmount(m.swapInvalidAmount, m.swapInvalidAmount),
});
export type SwapInput = z.input<typeof swapInputSchema>;
