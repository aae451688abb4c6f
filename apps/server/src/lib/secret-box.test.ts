import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = SecretBox.fromKey(Buffer.alloc(32, 7));

  it('round-trips a secret and never shows it in the sealed form', () => {
    const sealed = box.seal('my-binance-secret');
    expect(sealed).not.toContain('my-binance-secret');
    expect(box.open(sealed)).toBe('my-binance-secret');
    expect(box.seal('x')).not.toBe(box.seal('x'));
  });

  it('refuses a tampered value and a wrong key', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other!').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => SecretBox.fromKey(Buffer.alloc(32, 8)).open(sealed)).toThrow();
  });

  it('creates a private key file on first start and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'box-'));
    const file = join(dir, 'master.key');
    try {
      const sealed = SecretBox.load(undefined, file).seal('s');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(SecretBox.load(undefined, file).open(sealed)).toBe('s');
      expect(readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes MASTER_KEY as hex or base64', () => {
    const hex = 'ab'.repeat(32);
    const sealed = SecretBox.load(hex, '/nonexistent').seal('s');
    expect(SecretBox.load(Buffer.from(hex, 'hex').toString('base64'), '/nonexistent').open(sealed)).toBe('s');
    expect(() => SecretBox.load('short', '/nonexistent')).toThrow(/32 bytes/);
  });
});
