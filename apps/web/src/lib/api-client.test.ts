import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, testUser } from '../testing/mock-api';
import { ApiError, api, NO_RESPONSE_MESSAGE, setUnauthorizedHandler } from './api-client';
import { saveSession } from './session';

describe('api client', () => {
  afterEach(() => setUnauthorizedHandler(() => {}));

  it('sends the bearer token and JSON, and returns the parsed body', async () => {
    saveSession('abc', testUser);
    const calls = mockApi({ 'POST /api/thing': () => json({ ok: true }) });
    await expect(api.post('/api/thing', { a: 1 })).resolves.toEqual({ ok: true });
    expect(calls.calls[0]?.headers).toMatchObject({
      authorization: 'Bearer abc',
      'content-type': 'application/json',
    });
    expect(calls.calls[0]?.body).toEqual({ a: 1 });
  });

  it('sends no JSON content type without a body', async () => {
    const calls = mockApi({ 'POST /api/logout': () => json({ message: 'ok' }) });
    await api.post('/api/logout');
    expect(calls.calls[0]?.headers['content-type']).toBeUndefined();
  });

  it('throws ApiError with the status and the server message', async () => {
    mockApi({
      'GET /api/x': () => json({ message: 'Nope', errors: [{ path: 'email', message: 'Bad' }] }, 400),
    });
    const error = await api.get('/api/x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: 'Nope', fromServer: true });
    expect((error as ApiError).errors).toEqual([{ path: 'email', message: 'Bad' }]);
  });

  it('turns a network failure into "No response from server. Please try again."', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 0, message: NO_RESPONSE_MESSAGE });
  });

  it('on a 401 away from "/" removes the session and goes to the login page with the current path', async () => {
    saveSession('abc', testUser);
    window.history.replaceState(null, '', '/history?page=2');
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    mockApi({ 'GET /api/bothistory': () => json({ message: 'Session expired' }, 401) });

    await expect(api.get('/api/bothistory')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(handler).toHaveBeenCalledWith(`/?redirect=/history${encodeURIComponent('?page=2')}`);
  });

  it('on a 401 at "/" stays on the page (a refused login) and drops a stale session, user entry included', async () => {
    saveSession('abc', testUser);
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    mockApi({ 'POST /api/cyborxlogin': () => json({ message: 'Invalid' }, 401) });
    await expect(api.post('/api/cyborxlogin', {})).rejects.toMatchObject({ status: 401 });
    expect(handler).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('ignores a late 401 for a token that was logged out while the request was under way', async () => {
    saveSession('old', testUser);
    window.history.replaceState(null, '', '/dashboard');
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    mockApi({
      'GET /api/email': () => {
        localStorage.removeItem('token');
        return json({ message: 'Session expired' }, 401);
      },
    });
    await expect(api.get('/api/email')).rejects.toMatchObject({ status: 401 });
    expect(handler).not.toHaveBeenCalled();
  });

  it('sends each request in a task of its own, not within the call that asked for it', async () => {
    const calls = mockApi({ 'GET /api/x': () => json({ ok: true }) });
    const answer = api.get('/api/x');
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    expect(calls.calls).toHaveLength(0);
    await expect(answer).resolves.toEqual({ ok: true });
    expect(calls.calls).toHaveLength(1);
  });
});
