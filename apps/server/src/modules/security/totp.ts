import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sha256 } from '../../lib/tokens';

const PERIOD_S = 30;
/** One step either side: a phone clock a little off still signs in (RFC 6238 §5.2). */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

/** A new 160-bit secret (RFC 4226 §4 recommends 160 bits), base32 as authenticator apps read it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secretBase32: string, label = '') {
  return new TOTP({
    issuer: 'Gridbot',
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
  });
}

/** The otpauth:// URI an authenticator app scans from the QR code. */
export function otpauthUrl(secretBase32: string, account: string): string {
  return totpOf(secretBase32, account).toString();
}

/**
 * The 30-second step a code belongs to, when it is right at `nowMs` (within one step); undefined if not.
 * The caller stores the step so the same code is never accepted twice (RFC 6238 §5.2).
 */
export function acceptedStep(secretBase32: string, code: string, nowMs: number): number | undefined {
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: nowMs, window: WINDOW });
  if (delta === null) return undefined;
  return Math.floor(nowMs / 1000 / PERIOD_S) + delta;
}

// No 0/O, 1/I/L: recovery codes are copied from paper by hand.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Ten codes like `K7M2P-QX9RT`, each good for one sign-in. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (let i = 0; i < 10; i += 1) code += ALPHABET[randomInt(0, ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** Recovery codes are stored as SHA-256 of the upper-case code without its dash. */
export const recoveryCodeHash = (code: string) => sha256(code.trim().toUpperCase().replace('-', ''));

export const isTotpCode = (code: string) => /^\d{6}$/.test(code.trim());
