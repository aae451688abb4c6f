import { describe, expect, it } from 'vitest';
import { botIdOfClientOrderId, clientOrderIdOf } from './client-order-id';

// Bytes 00 01 … 0f in base64url are 'AAECAwQFBgcICQoLDA0ODw' (RFC 4648 §5: 6 bits a character, no padding).
const BOT = '00010203-0405-0607-0809-0a0b0c0d0e0f';

describe('client order id', () => {
  it('packs the bot id and the sequence in base 36, and the bot id reads back from it', () => {
    expect(clientOrderIdOf(BOT, 35)).toBe('AAECAwQFBgcICQoLDA0ODw-z');
    expect(botIdOfClientOrderId('AAECAwQFBgcICQoLDA0ODw-z')).toBe(BOT);
  });

  it('names no bot for an id the platform did not give a bot order', () => {
    expect(botIdOfClientOrderId('web_7f3a2b')).toBeUndefined();
    expect(botIdOfClientOrderId('close-ETHUSDT-1795921117985')).toBeUndefined();
    expect(botIdOfClientOrderId('')).toBeUndefined();
    expect(botIdOfClientOrderId('AAECAwQFBgcICQoLDA0ODw')).toBeUndefined();
  });
});
