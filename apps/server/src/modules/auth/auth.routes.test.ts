import { authMessages as m } from '@gridbot/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newSignup, registerUser } from '../../testing/http';
import { createTestApp, lastOtp, lastResetToken, type TestApp } from '../../testing/test-app';
import { SESSION_CACHE_TTL_MS } from '../identity/session-cache';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('sign-up with an e-mailed code', () => {
  it('mails a 6-digit code and creates no account until it is verified', async () => {
    const data = newSignup('alice');
    const res = await call(t, 'POST', '/api/signup', data, { ip: '10.1.0.1' });
    expect(res).toMatchObject({ status: 200, body: { success: true, message: m.otpSent } });
    expect(lastOtp(t.mails, data.email)).toMatch(/^\d{6}$/);

    const login = await call(t, 'POST', '/api/cyborxlogin', { email: data.email, password: data.password });
    expect(login.status).toBe(401);

    const verified = await call(t, 'POST', '/api/verify-otp', { ...data, otp: lastOtp(t.mails, data.email) });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      success: true,
      message: m.otpVerified,
      user: { email: data.email },
    });
    expect(verified.body.token).toBe(verified.body.accessToken);
    expect(JSON.stringify(verified.body)).not.toContain('passwordHash');
  });

  it('refuses a taken e-mail or username whatever their case', async () => {
    const user = await registerUser(t, 'bob');
    const byEmail = await call(t, 'POST', '/api/signup', { ...newSignup(), email: user.email.toUpperCase() });
    expect(byEmail).toMatchObject({ status: 409, body: { message: m.emailTaken } });
    const byName = await call(t, 'POST', '/api/signup', {
      ...newSignup(),
      username: user.username.toUpperCase(),
    });
    expect(byName).toMatchObject({ status: 409, body: { message: m.usernameTaken } });
  });

  it('refuses an unknown referral ID and links a known one', async () => {
    const unknown = await call(t, 'POST', '/api/signup', { ...newSignup(), referralId: 'NOPE2222' });
    expect(unknown).toMatchObject({ status: 400, body: { message: m.referralUnknown } });
    const referrer = await registerUser(t, 'ref');
    const me = await call(t, 'GET', '/api/me', undefined, { token: referrer.token });
    const code = (me.body.user as { userCode: string }).userCode;
    const ok = await call(t, 'POST', '/api/signup', { ...newSignup(), referralId: code.toLowerCase() });
    expect(ok.status).toBe(200);
  });

  it('answers a wrong code with the spec message and kills the code after 5 wrong ones', async () => {
    const data = newSignup('carol');
    await call(t, 'POST', '/api/signup', data, { ip: '10.1.0.2' });
    const right = lastOtp(t.mails, data.email);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i += 1) {
      const res = await call(
        t,
        'POST',
        '/api/verify-otp',
        { email: data.email, otp: wrong },
        { ip: '10.1.0.2' },
      );
      expect(res).toMatchObject({ status: 400, body: { message: m.otpInvalid } });
    }
    const fifth = await call(
      t,
      'POST',
      '/api/verify-otp',
      { email: data.email, otp: wrong },
      { ip: '10.1.0.2' },
    );
    expect(fifth.body.message).toBe(m.otpLocked);
    const late = await call(
      t,
      'POST',
      '/api/verify-otp',
      { email: data.email, otp: right },
      { ip: '10.1.0.2' },
    );
    expect(late).toMatchObject({ status: 400, body: { message: m.otpLocked } });

    t.clock.advance(30_000);
    const resent = await call(t, 'POST', '/api/resend-otp', { email: data.email }, { ip: '10.1.0.2' });
    expect(resent).toMatchObject({ status: 200, body: { message: m.otpResent } });
    const fresh = lastOtp(t.mails, data.email);
    const ok = await call(
      t,
      'POST',
      '/api/verify-otp',
      { email: data.email, otp: fresh },
      { ip: '10.1.0.2' },
    );
    expect(ok.status).toBe(200);
  });

  it('enforces the 30 s resend wait on the server', async () => {
    const data = newSignup('dave');
    await call(t, 'POST', '/api/signup', data, { ip: '10.1.0.3' });
    t.clock.advance(10_000);
    const early = await call(t, 'POST', '/api/resend-otp', { email: data.email }, { ip: '10.1.0.3' });
    expect(early).toMatchObject({
      status: 429,
      body: { message: m.otpResendWait(20), retryAfterSeconds: 20 },
    });
    const again = await call(t, 'POST', '/api/signup', data, { ip: '10.1.0.3' });
    expect(again.status).toBe(429);
    t.clock.advance(20_000);
    const ok = await call(t, 'POST', '/api/resend-otp', { email: data.email }, { ip: '10.1.0.3' });
    expect(ok.status).toBe(200);
  });

  it('lets a code expire after 10 minutes', async () => {
    const data = newSignup('erin');
    await call(t, 'POST', '/api/signup', data, { ip: '10.1.0.4' });
    const code = lastOtp(t.mails, data.email);
    t.clock.advance(10 * 60_000 + 1);
    const res = await call(
      t,
      'POST',
      '/api/verify-otp',
      { email: data.email, otp: code },
      { ip: '10.1.0.4' },
    );
    expect(res).toMatchObject({ status: 400, body: { message: m.otpExpired } });
  });

  it('says when no sign-up waits for the e-mail', async () => {
    const res = await call(t, 'POST', '/api/verify-otp', { email: 'nobody@example.com', otp: '123456' });
    expect(res).toMatchObject({ status: 400, body: { message: m.otpNoPending } });
  });
});

describe('login and logout', () => {
  it('logs in by e-mail or username in any case', async () => {
    const user = await registerUser(t, 'frank');
    for (const id of [user.email, user.username.toUpperCase()]) {
      const res = await call(
        t,
        'POST',
        '/api/cyborxlogin',
        { email: id, password: user.password },
        { ip: '10.2.0.1' },
      );
      expect(res.status).toBe(200);
      expect(res.body.token).toEqual(expect.any(String));
    }
  });

  it('answers a wrong password with 401 and a message', async () => {
    const user = await registerUser(t, 'gina');
    const res = await call(
      t,
      'POST',
      '/api/cyborxlogin',
      { email: user.email, password: 'wrong-pass' },
      { ip: '10.2.0.2' },
    );
    expect(res).toMatchObject({ status: 401, body: { message: m.invalidCredentials } });
  });

  it('revokes the token on logout', async () => {
    const user = await registerUser(t, 'hank');
    expect((await call(t, 'GET', '/api/email', undefined, { token: user.token })).body).toEqual({
      email: user.email,
      username: user.username,
    });
    expect((await call(t, 'POST', '/api/logout', undefined, { token: user.token })).status).toBe(200);
    const after = await call(t, 'GET', '/api/me', undefined, { token: user.token });
    expect(after).toMatchObject({ status: 401, body: { message: m.sessionExpired } });
  });

  it('stops a session revoked by another process within the cache time, and an expired one at once', async () => {
    const user = await registerUser(t, 'hugo');
    expect((await call(t, 'GET', '/api/email', undefined, { token: user.token })).status).toBe(200);
    // Another API process logs the user out: only the database knows.
    await t.handle.db.execute(
      sql`update sessions set revoked_at = now() where user_id = (select id from users where email = ${user.email})`,
    );
    expect((await call(t, 'GET', '/api/email', undefined, { token: user.token })).status).toBe(200);
    t.clock.advance(SESSION_CACHE_TTL_MS);
    const after = await call(t, 'GET', '/api/email', undefined, { token: user.token });
    expect(after).toMatchObject({ status: 401, body: { message: m.sessionExpired } });

    const other = await registerUser(t, 'hilda');
    expect((await call(t, 'GET', '/api/email', undefined, { token: other.token })).status).toBe(200);
    t.clock.advance(30 * 24 * 3_600_000);
    expect((await call(t, 'GET', '/api/email', undefined, { token: other.token })).status).toBe(401);
  });

  it('answers 401 without a token or with a made-up one', async () => {
    expect((await call(t, 'GET', '/api/me')).status).toBe(401);
    expect((await call(t, 'GET', '/api/me', undefined, { token: 'x'.repeat(43) })).status).toBe(401);
  });

  it('rate-limits login attempts per account with a clear 429', async () => {
    const user = await registerUser(t, 'ivan');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const ip = `10.3.${i}.1`; // a different IP each time: the per-account limit must still hold
      statuses.push(
        (await call(t, 'POST', '/api/cyborxlogin', { email: user.email, password: 'wrongpw' }, { ip }))
          .status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const blocked = await call(
      t,
      'POST',
      '/api/cyborxlogin',
      { email: user.email, password: user.password },
      { ip: '10.3.99.1' },
    );
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
    t.clock.advance(15 * 60_000);
    const later = await call(
      t,
      'POST',
      '/api/cyborxlogin',
      { email: user.email, password: user.password },
      { ip: '10.3.99.1' },
    );
    expect(later.status).toBe(200);
  });

  it('rate-limits login attempts per IP', async () => {
    let last = 0;
    for (let i = 0; i < 31; i += 1) {
      last = (
        await call(
          t,
          'POST',
          '/api/cyborxlogin',
          { email: `x${i}@example.com`, password: 'secret1' },
          { ip: '10.4.0.1' },
        )
      ).status;
    }
    expect(last).toBe(429);
    t.clock.advance(15 * 60_000);
  });
});

describe('forgot and reset password', () => {
  it('answers 404 User not found for an unknown e-mail', async () => {
    const res = await call(
      t,
      'POST',
      '/api/forgot-password',
      { email: 'ghost@example.com' },
      { ip: '10.5.0.1' },
    );
    expect(res).toMatchObject({ status: 404, body: { message: m.userNotFound } });
  });

  it('resets through a single-use link and ends every session', async () => {
    const user = await registerUser(t, 'judy');
    const sent = await call(t, 'POST', '/api/forgot-password', { email: user.email }, { ip: '10.5.0.2' });
    expect(sent).toMatchObject({ status: 200, body: { success: true, message: m.resetLinkSent } });
    const token = lastResetToken(t.mails, user.email);

    const reset = await call(
      t,
      'POST',
      `/api/reset-password/${token}`,
      { password: 'newsecret1' },
      { ip: '10.5.0.2' },
    );
    expect(reset).toMatchObject({ status: 200, body: { success: true, message: m.passwordReset } });
    expect((await call(t, 'GET', '/api/me', undefined, { token: user.token })).status).toBe(401);

    const reused = await call(
      t,
      'POST',
      `/api/reset-password/${token}`,
      { password: 'another1' },
      { ip: '10.5.0.2' },
    );
    expect(reused).toMatchObject({ status: 400, body: { message: m.resetLinkInvalid } });
    const login = await call(
      t,
      'POST',
      '/api/cyborxlogin',
      { email: user.email, password: 'newsecret1' },
      { ip: '10.5.0.2' },
    );
    expect(login.status).toBe(200);
  });

  it('refuses a link older than 30 minutes and a malformed one', async () => {
    const user = await registerUser(t, 'kate');
    await call(t, 'POST', '/api/forgot-password', { email: user.email }, { ip: '10.5.0.3' });
    const token = lastResetToken(t.mails, user.email);
    t.clock.advance(30 * 60_000 + 1);
    const expired = await call(
      t,
      'POST',
      `/api/reset-password/${token}`,
      { password: 'newsecret1' },
      { ip: '10.5.0.3' },
    );
    expect(expired).toMatchObject({ status: 400, body: { message: m.resetLinkInvalid } });
    const malformed = await call(
      t,
      'POST',
      '/api/reset-password/abc',
      { password: 'newsecret1' },
      { ip: '10.5.0.3' },
    );
    expect(malformed).toMatchObject({ status: 400, body: { message: m.resetLinkInvalid } });
  });

  it('stores only hashes of reset tokens and sessions', async () => {
    const user = await registerUser(t, 'liam');
    await call(t, 'POST', '/api/forgot-password', { email: user.email }, { ip: '10.5.0.4' });
    const token = lastResetToken(t.mails, user.email);
    const resets = await t.handle.db.execute(sql`select * from password_resets`);
    const sessions = await t.handle.db.execute(sql`select * from sessions`);
    const dump = JSON.stringify([resets, sessions]);
    expect(dump).toContain('token_hash');
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(user.token);
  });
});

describe('administrator from ADMIN_EMAIL', () => {
  it('shows role admin in the session user data, and user for everyone else', async () => {
    const data = { ...newSignup('adm'), email: 'Admin@Example.com' };
    await call(t, 'POST', '/api/signup', data, { ip: '10.44.0.1' });
    const verified = await call(
      t,
      'POST',
      '/api/verify-otp',
      { ...data, otp: lastOtp(t.mails, data.email) },
      { ip: '10.44.0.1' },
    );
    expect(verified.body.user).toMatchObject({ role: 'admin' });
    const me = await call(t, 'GET', '/api/me', undefined, { token: String(verified.body.token) });
    expect(me.body.user).toMatchObject({ role: 'admin' });
    const other = await registerUser(t, 'notadm');
    const otherMe = await call(t, 'GET', '/api/me', undefined, { token: other.token });
    expect(otherMe.body.user).toMatchObject({ role: 'user' });
  });
});

describe('account takeover paths', () => {
  const codesTo = (to: string) =>
    t.mails
      .filter((mail) => mail.to === to && /verification code/.test(mail.subject))
      .map((mail) => mail.text.match(/\b(\d{6})\b/)?.[1] as string);

  it('keeps an earlier sign-up attempt as it was when someone signs up again for the same e-mail', async () => {
    const victim = newSignup('vict');
    await call(t, 'POST', '/api/signup', victim, { ip: '10.20.0.1' });
    t.clock.advance(31_000);
    const attacker = { ...newSignup('mall'), email: victim.email, password: 'attacker1' };
    expect((await call(t, 'POST', '/api/signup', attacker, { ip: '10.20.0.2' })).status).toBe(200);
    const [victimCode, attackerCode] = codesTo(victim.email);

    // The victim types the newest code, the one mailed for the attacker's attempt: it is not theirs.
    const wrongAttempt = await call(t, 'POST', '/api/verify-otp', { ...victim, otp: attackerCode });
    expect(wrongAttempt).toMatchObject({ status: 400, body: { message: m.otpInvalid } });
    // The victim's own code still verifies the victim's own attempt, with the victim's password.
    const verified = await call(t, 'POST', '/api/verify-otp', { ...victim, otp: victimCode });
    expect(verified).toMatchObject({ status: 200, body: { user: { username: victim.username } } });
    const asVictim = { email: victim.email, password: victim.password };
    expect((await call(t, 'POST', '/api/cyborxlogin', asVictim, { ip: '10.20.0.1' })).status).toBe(200);
    const asAttacker = { email: victim.email, password: attacker.password };
    expect((await call(t, 'POST', '/api/cyborxlogin', asAttacker, { ip: '10.20.0.2' })).status).toBe(401);
    // Every other attempt for the e-mail ended with the account.
    const late = await call(t, 'POST', '/api/verify-otp', { ...attacker, otp: attackerCode });
    expect(late).toMatchObject({ status: 400, body: { message: m.otpNoPending } });
  });

  it('needs the sign-up password beside the code while several attempts wait for one e-mail', async () => {
    const first = newSignup('pair');
    await call(t, 'POST', '/api/signup', first, { ip: '10.20.1.1' });
    t.clock.advance(31_000);
    const second = { ...newSignup('pair'), email: first.email };
    await call(t, 'POST', '/api/signup', second, { ip: '10.20.1.2' });
    const [, secondCode] = codesTo(first.email);
    const bare = await call(t, 'POST', '/api/verify-otp', { email: first.email, otp: secondCode });
    expect(bare).toMatchObject({ status: 400, body: { message: m.otpInvalid } });
  });

  it('ends every other reset link when one is used', async () => {
    const user = await registerUser(t, 'links');
    await call(t, 'POST', '/api/forgot-password', { email: user.email }, { ip: '10.21.0.1' });
    const older = lastResetToken(t.mails, user.email);
    await call(t, 'POST', '/api/forgot-password', { email: user.email }, { ip: '10.21.0.1' });
    const newer = lastResetToken(t.mails, user.email);
    const used = await call(t, 'POST', `/api/reset-password/${newer}`, { password: 'owner-new1' });
    expect(used.status).toBe(200);
    const stale = await call(t, 'POST', `/api/reset-password/${older}`, { password: 'attacker1' });
    expect(stale).toMatchObject({ status: 400, body: { message: m.resetLinkInvalid } });
    const login = { email: user.email, password: 'owner-new1' };
    expect((await call(t, 'POST', '/api/cyborxlogin', login, { ip: '10.21.0.1' })).status).toBe(200);
  });

  it('counts login attempts per account, whether they name it by e-mail or by username', async () => {
    const user = await registerUser(t, 'both');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const email = i % 2 === 0 ? user.email : user.username.toUpperCase();
      const res = await call(
        t,
        'POST',
        '/api/cyborxlogin',
        { email, password: 'wrongpw' },
        { ip: `10.22.${i}.1` },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    t.clock.advance(15 * 60_000);
  });

  it('lets the owner log in from a device they used before while strangers have spent the attempts', async () => {
    const home = '10.23.0.1';
    const user = await registerUser(t, 'owner', home);
    for (let i = 0; i < 12; i += 1)
      await call(
        t,
        'POST',
        '/api/cyborxlogin',
        { email: user.email, password: 'guess00' },
        { ip: `10.23.${i}.9` },
      );
    const stranger = await call(
      t,
      'POST',
      '/api/cyborxlogin',
      { email: user.email, password: user.password },
      {
        ip: '10.23.50.9',
      },
    );
    expect(stranger.status).toBe(429);
    const owner = await call(
      t,
      'POST',
      '/api/cyborxlogin',
      { email: user.email, password: user.password },
      {
        ip: home,
      },
    );
    expect(owner.status).toBe(200);
    t.clock.advance(15 * 60_000);
  });
});
