import { createHash, randomBytes, randomInt } from 'node:crypto';

/** 32 random bytes in base64url: bearer tokens and reset links. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only hashes of tokens and codes are stored, so a database dump opens no session. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A six-digit code from a CSPRNG, zero-padded. */
export function newOtp(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

// No 0/O, 1/I/L: referral IDs are read aloud and typed by hand.
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A short referral ID of unambiguous characters. */
export function newUserCode(length = 8): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += CODE_ALPHABET[randomInt(0, CODE_ALPHABET.length)];
  return code;
}
