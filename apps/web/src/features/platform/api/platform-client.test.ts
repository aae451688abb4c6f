import { afterEach, describe, expect, it } from 'vitest';
import { json, mockApi } from '../../../testing/mock-api';
import { fail, ok } from '../testing/platform-api';
import { isPlatformError, listBody, platformCall, platformPost, rowNumber } from './platform-client';

describe('platform client', () => {
  afterEach(() => localStorage.clear());

  it("returns data and msg of a '0000' answer and sends the bearer token", async () => {
    localStorage.setItem('token', 't1');
    const api = mockApi({ 'POST /platform/x': () => ok({ a: 1 }, 'done') });
    await expect(platformCall('/platform/x', { b: 2 })).resolves.toEqual({ data: { a: 1 }, msg: 'done' });
    expect(api.calls[0]?.headers.authorization).toBe('Bearer t1');
    expect(api.calls[0]?.body).toEqual({ b: 2 });
  });

  it("throws the server's msg for any other code, even with status 200", async () => {
    mockApi({ 'POST /platform/x': () => fail('Insufficient USDT balance', '4000') });
    const error = await platformPost('/platform/x').catch((e: unknown) => e);
    expect(isPlatformError(error) && error.message).toBe('Insufficient USDT balance');
    expect(isPlatformError(error) && error.code).toBe('4000');
  });

  it('reads msg (or error) from a failed HTTP answer', async () => {
    mockApi({
      'POST /platform/x': () => fail('Deposits are not configured on this server.', '5030', 503),
      'POST /platform/y': () => json({ code: '4000', error: 'Bad thing' }, 400),
    });
    await expect(platformPost('/platform/x')).rejects.toThrow('Deposits are not configured on this server.');
    await expect(platformPost('/platform/y')).rejects.toThrow('Bad thing');
  });

  it('sends lists as {filters, limit: 10, page} and numbers rows across pages', () => {
    expect(listBody(3)).toEqual({ filters: {}, limit: 10, page: 3 });
    expect(rowNumber(1, 0)).toBe(1);
    expect(rowNumber(2, 0)).toBe(11);
    expect(rowNumber(3, 4)).toBe(25);
  });
});
