import { describe, expect, it } from 'vitest';
import { loginPathFor, safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it.each(['/dashboard', '/running-bot/5?tab=orders', '/editstrategy/my%20grid'])(
    'accepts the same-site path %s',
    (path) => {
      expect(safeRedirect(path)).toBe(path);
    },
  );

  it.each([
    null,
    '',
    'dashboard',
    '//evil.example',
    '/\\evil.example',
    'https://evil.example',
    '/\t/evil.example',
    'javascript:alert(1)',
  ])('refuses %s', (value) => {
    expect(safeRedirect(value)).toBeNull();
  });
});

describe('loginPathFor', () => {
  it('keeps slashes readable and encodes the rest', () => {
    expect(loginPathFor('/dashboard')).toBe('/?redirect=/dashboard');
    expect(loginPathFor('/history?page=2&tab=cycle')).toBe('/?redirect=/history%3Fpage%3D2%26tab%3Dcycle');
    expect(loginPathFor('/')).toBe('/');
  });
});
