import { authMessages, securityMessages as sm } from '@gridbot/shared';
import { sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../../testing/http';
import { createTestApp, lastResetToken, type TestApp } from '../../testing/test-app';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const login = (
  email: string,
  password: string,
  ip: string,
  extra: Record<string, unknown> = {},
  userAgent = FIREFOX_LINUX,
) => call(t, 'POST', '/api/cyborxlogin', { email, password, ...extra }, { ip, userAgent });

/** The code an authenticator app shows at the test clock's time plus `offsetS`. */
function codeOf(secret: string, offsetS = 0) {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: t.clock.now().getTime() + offsetS * 1000,
  });
}

describe('sessions', () => {
  it('lists sessions with device and IP, ends one (its token gets 401) and all others', async () => {
    const user = await registerUser(t, 'sess');
    const phone = await login(user.email, user.password, '10.70.0.2', {}, SAFARI_IPHONE);
    const laptop = await login(user.email, user.password, '10.70.0.3');
    expect(phone.status).toBe(200);
    const list = await call(t, 'GET', '/api/security/sessions', undefined, {
      token: String(laptop.body.token),
    });
    const sessions = list.body.sessions as { id: string; device: string; ip: string; current: boolean }[];
    expect(sessions).toHaveLength(3);
    expect(sessions.find((s) => s.current)).toMatchObject({
      device: 'Firefox 133 on Linux',
      ip: '10.70.0.3',
    });
    const iphone = sessions.find((s) => s.ip === '10.70.0.2');
    expect(iphone?.device).toBe('Safari 17 on iOS');

    const ended = await call(t, 'POST', `/api/security/sessions/${iphone?.id}/logout`, undefined, {
      token: String(laptop.body.token),
    });
    expect(ended).toMatchObject({ status: 200, body: { message: sm.sessionEnded } });
    const refused = await call(t, 'GET', '/api/me', undefined, { token: String(phone.body.token) });
    expect(refused).toMatchObject({ status: 401, body: { message: authMessages.sessionExpired } });

    await call(t, 'POST', '/api/security/sessions/logout-others', undefined, {
      token: String(laptop.body.token),
    });
    expect((await call(t, 'GET', '/api/me', undefined, { token: user.token })).status).toBe(401);
    expect((await call(t, 'GET', '/api/me', undefined, { token: String(laptop.body.token) })).status).toBe(
      200,
    );
  });

  it("answers 404 for another user's session and 401 without a session", async () => {
    const alice = await registerUser(t, 'alice');
    const bob = await registerUser(t, 'bob');
    const bobs = await call(t, 'GET', '/api/security/sessions', undefined, { token: bob.token });
    const bobSession = (bobs.body.sessions as { id: string }[])[0]?.id;
    const res = await call(t, 'POST', `/api/security/sessions/${bobSession}/logout`, undefined, {
      token: alice.token,
    });
    expect(res).toMatchObject({ status: 404, body: { message: sm.sessionNotFound } });
    expect((await call(t, 'GET', '/api/me', undefined, { token: bob.token })).status).toBe(200);
    expect((await call(t, 'GET', '/api/security/sessions')).status).toBe(401);
  });
});

describe('change password', () => {
  it('needs the current password, applies the sign-up rules and ends the other sessions', async () => {
    const user = await registerUser(t, 'pw');
    const other = await login(user.email, user.password, '10.71.0.2');
    const wrong = await call(
      t,
      'POST',
      '/api/security/password',
      { currentPassword: 'not-it', newPassword: 'newsecret1' },
      { token: user.token },
    );
    expect(wrong).toMatchObject({ status: 400, body: { message: sm.currentPasswordWrong } });
    const short = await call(
      t,
      'POST',
      '/api/security/password',
      { currentPassword: user.password, newPassword: 'abc' },
      { token: user.token },
    );
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toContain(authMessages.passwordMin);

    const ok = await call(
      t,
      'POST',
      '/api/security/password',
      { currentPassword: user.password, newPassword: 'newsecret1' },
      { token: user.token },
    );
    expect(ok).toMatchObject({ status: 200, body: { message: sm.passwordChanged } });
    expect((await call(t, 'GET', '/api/me', undefined, { token: String(other.body.token) })).status).toBe(
      401,
    );
    expect((await call(t, 'GET', '/api/me', undefined, { token: user.token })).status).toBe(200);
    expect((await login(user.email, user.password, '10.71.0.3')).status).toBe(401);
    expect((await login(user.email, 'newsecret1', '10.71.0.3')).status).toBe(200);
  });
});

describe('two-factor sign-in', () => {
  it('sets up with a first code, then asks for the code after the password; a recovery code works once', async () => {
    const user = await registerUser(t, 'tfa');
    const setup = await call(t, 'POST', '/api/security/2fa/setup', undefined, { token: user.token });
    const secret = String(setup.body.secret);
    expect(String(setup.body.otpauthUrl)).toMatch(/^otpauth:\/\/totp\/Gridbot:/);
    const wrongFirst = await call(
      t,
      'POST',
      '/api/security/2fa/enable',
      { code: '000000' },
      { token: user.token },
    );
    expect(wrongFirst.status).toBe(400);
    const enabled = await call(
      t,
      'POST',
      '/api/security/2fa/enable',
      { code: codeOf(secret) },
      { token: user.token },
    );
    expect(enabled).toMatchObject({ status: 200, body: { message: sm.twoFactorEnabled } });
    const codes = enabled.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    const noCode = await login(user.email, user.password, '10.72.0.2');
    expect(noCode).toMatchObject({
      status: 401,
      body: { message: sm.codeRequired, twoFactorRequired: true },
    });
    const wrong = await login(user.email, user.password, '10.72.0.2', {
      code: codeOf(secret, 30) === '123456' ? '654321' : '123456',
    });
    expect(wrong).toMatchObject({ status: 401, body: { message: sm.codeInvalid } });
    // The code used to enable is spent: the next step's code signs in, and only once.
    const next = codeOf(secret, 30);
    t.clock.advance(30_000);
    const ok = await login(user.email, user.password, '10.72.0.2', { code: next });
    expect(ok.status).toBe(200);
    const replay = await login(user.email, user.password, '10.72.0.2', { code: next });
    expect(replay).toMatchObject({ status: 401, body: { message: sm.codeInvalid } });

    const recovery = codes[0] as string;
    expect(
      (await login(user.email, user.password, '10.72.0.3', { code: recovery.toLowerCase() })).status,
    ).toBe(200);
    expect((await login(user.email, user.password, '10.72.0.3', { code: recovery })).status).toBe(401);
    const status = await call(t, 'GET', '/api/security/2fa', undefined, { token: user.token });
    expect(status.body).toMatchObject({ enabled: true, recoveryCodesLeft: 9 });

    // Turning it off asks for the code again.
    const offNoCode = await call(
      t,
      'POST',
      '/api/security/2fa/disable',
      { code: '111111' },
      { token: user.token },
    );
    expect(offNoCode).toMatchObject({ status: 403, body: { message: sm.codeInvalid } });
    t.clock.advance(30_000);
    const off = await call(
      t,
      'POST',
      '/api/security/2fa/disable',
      { code: codeOf(secret) },
      { token: user.token },
    );
    expect(off).toMatchObject({ status: 200, body: { message: sm.twoFactorDisabled } });
    expect((await login(user.email, user.password, '10.72.0.4')).status).toBe(200);

    const log = await call(t, 'GET', '/api/security/log', undefined, { token: user.token });
    const types = (log.body.items as { type: string }[]).map((i) => i.type);
    expect(types.slice(0, 2)).toEqual(['login_new_device', 'two_factor_off']);
    expect(types).toContain('recovery_code_used');
    expect(types).toContain('two_factor_on');
    expect(types).toContain('login_failed');
  });

  it('counts a sign-in with password then code as one attempt against the login limit', async () => {
    // The account's limit is 10 attempts in 15 minutes (every new device shares one count). Nine two-factor
    // sign-ins (each: the password, answered "code required", then the password with the code) and one
    // wrong code make ten attempts; the eleventh is refused.
    const user = await registerUser(t, 'tfaonce');
    const setup = await call(t, 'POST', '/api/security/2fa/setup', undefined, { token: user.token });
    const secret = String(setup.body.secret);
    await call(t, 'POST', '/api/security/2fa/enable', { code: codeOf(secret) }, { token: user.token });
    for (let i = 0; i < 9; i += 1) {
      const ip = `10.74.${i}.1`;
      const prompt = await login(user.email, user.password, ip);
      expect(prompt.body, `sign-in ${i + 1}`).toMatchObject({ twoFactorRequired: true });
      t.clock.advance(30_000); // a code is used once: each sign-in types the next step's
      const signedIn = await login(user.email, user.password, ip, { code: codeOf(secret) });
      expect(signedIn.status, `sign-in ${i + 1}`).toBe(200);
    }
    const wrong = await login(user.email, user.password, '10.74.9.1', { code: '000000' });
    expect(wrong).toMatchObject({ status: 401, body: { message: sm.codeInvalid } });
    const eleventh = await login(user.email, user.password, '10.74.10.1');
    expect(eleventh.status).toBe(429);
    t.clock.advance(15 * 60_000);
  });

  it('ends the other sessions when turned on, and keeps the one that turned it on', async () => {
    const user = await registerUser(t, 'tfaends');
    const phone = await login(user.email, user.password, '10.73.0.2', {}, SAFARI_IPHONE);
    const laptop = await login(user.email, user.password, '10.73.0.3');
    const setup = await call(t, 'POST', '/api/security/2fa/setup', undefined, { token: user.token });
    const enabled = await call(
      t,
      'POST',
      '/api/security/2fa/enable',
      { code: codeOf(String(setup.body.secret)) },
      { token: user.token },
    );
    expect(enabled.status).toBe(200);
    for (const other of [phone, laptop])
      expect(await call(t, 'GET', '/api/me', undefined, { token: String(other.body.token) })).toMatchObject({
        status: 401,
        body: { message: authMessages.sessionExpired },
      });
    expect((await call(t, 'GET', '/api/me', undefined, { token: user.token })).status).toBe(200);
    const list = await call(t, 'GET', '/api/security/sessions', undefined, { token: user.token });
    expect(list.body.sessions).toEqual([expect.objectContaining({ current: true })]);
  });

  it('asks for the code before API keys change', async () => {
    const user = await registerUser(t, 'tfakeys');
    const setup = await call(t, 'POST', '/api/security/2fa/setup', undefined, { token: user.token });
    const secret = String(setup.body.secret);
    await call(t, 'POST', '/api/security/2fa/enable', { code: codeOf(secret) }, { token: user.token });
    const keys = { apiKey: 'paperkey-abcdef', secretKey: 'papersecret' };
    const noCode = await call(t, 'POST', '/api/apikeys', keys, { token: user.token });
    expect(noCode).toMatchObject({
      status: 403,
      body: { message: sm.codeRequired, twoFactorRequired: true },
    });
    t.clock.advance(30_000);
    const ok = await call(
      t,
      'POST',
      '/api/apikeys',
      { ...keys, code: codeOf(secret) },
      { token: user.token },
    );
    expect(ok.status).toBe(200);
  });

  it('lets the admin require 2FA of administrators', async () => {
    const admin = await registerUser(t, 'adm');
    await t.handle.db.execute(sql`update users set role = 'admin' where email = ${admin.email}`);
    const on = await call(
      t,
      'PUT',
      '/api/admin/security',
      { requireAdminTwoFactor: true },
      { token: admin.token },
    );
    expect(on.status).toBe(200);
    const refused = await call(t, 'GET', '/api/admin/users', undefined, { token: admin.token });
    expect(refused).toMatchObject({ status: 403, body: { message: sm.adminTwoFactorRequired } });
    const plain = await registerUser(t, 'plain');
    expect((await call(t, 'GET', '/api/admin/security', undefined, { token: plain.token })).status).toBe(404);
    await call(t, 'PUT', '/api/admin/security', { requireAdminTwoFactor: false }, { token: admin.token });
    expect((await call(t, 'GET', '/api/admin/users', undefined, { token: admin.token })).status).toBe(200);
  });
});

describe('security log', () => {
  it('records failed and successful logins, password reset and key changes, newest first and paged', async () => {
    const user = await registerUser(t, 'log');
    await login(user.email, 'wrong-password', '10.73.0.9');
    await call(
      t,
      'POST',
      '/api/apikeys',
      { apiKey: 'paperkey-123456', secretKey: 'papersecret' },
      { token: user.token },
    );
    await call(t, 'POST', '/api/apikeys', { apiKey: null, secretKey: null }, { token: user.token });
    await call(t, 'POST', '/api/forgot-password', { email: user.email });
    await call(t, 'POST', `/api/reset-password/${lastResetToken(t.mails, user.email)}`, {
      password: 'another1',
    });
    const fresh = await login(user.email, 'another1', '10.73.0.9');
    const log = await call(t, 'GET', '/api/security/log?page=1', undefined, {
      token: String(fresh.body.token),
    });
    const items = log.body.items as { type: string; ip: string; detail: string | null }[];
    // Signed up elsewhere: this browser at this address is a new device.
    expect(items.map((i) => i.type)).toEqual([
      'login_new_device',
      'password_reset',
      'key_removed',
      'key_saved',
      'login_failed',
    ]);
    expect(items[4]).toMatchObject({ ip: '10.73.0.9', detail: 'Firefox 133 on Linux' });
    expect(items[3]?.detail).toBe('paperk…');
    expect(JSON.stringify(log.body)).not.toContain('papersecret');
    expect(JSON.stringify(log.body)).not.toContain('paperkey-123456');
    expect(log.body).toMatchObject({ page: 1, total: 5 });
    const page2 = await call(t, 'GET', '/api/security/log?page=2', undefined, {
      token: String(fresh.body.token),
    });
    expect(page2.body.items).toEqual([]);
  });
});
