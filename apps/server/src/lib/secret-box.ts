import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const VERSION = 'v1';

/**
 * AES-256-GCM for secrets at rest (docs/trading-rules.md §3: exchange API secrets). The output is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url, so a database dump never holds a secret in clear and a
 * tampered value fails to open instead of decrypting to garbage.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKey(key: Buffer): SecretBox {
    if (key.length !== 32) throw new Error('MASTER_KEY must be 32 bytes (64 hex characters or base64)');
    return new SecretBox(key);
  }

  /** MASTER_KEY when given, else a key file created (mode 0600) on first start. */
  static load(masterKey: string | undefined, keyFile: string): SecretBox {
    if (masterKey) {
      const key = /^[0-9a-f]{64}$/i.test(masterKey)
        ? Buffer.from(masterKey, 'hex')
        : Buffer.from(masterKey, 'base64');
      return SecretBox.fromKey(key);
    }
    if (!existsSync(keyFile)) {
      mkdirSync(dirname(keyFile), { recursive: true });
      writeFileSync(keyFile, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    }
    return SecretBox.fromKey(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'hex'));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
