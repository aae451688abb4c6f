import { describe, expect, it } from 'vitest';
import { pathWith } from './paths';

describe('pathWith', () => {
  it('fills each :name with its URI-encoded value', () => {
    expect(pathWith('/api/admin/withdrawals/:id/approve', { id: 'w 1' })).toBe(
      '/api/admin/withdrawals/w%201/approve',
    );
    expect(pathWith('/api/reset-password/:token', { token: 'a/b?c' })).toBe('/api/reset-password/a%2Fb%3Fc');
  });

  it('refuses a pattern whose parameter has no value', () => {
    expect(() => pathWith('/api/admin/plans/:id', {})).toThrow(':id');
  });
});
