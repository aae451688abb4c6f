import { authMessages as a, contactMessages as c } from '@gridbot/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '../testing/http';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await registerUser(t, 'val')).token;
});
afterAll(async () => {
  await t.close();
});

const long = (n: number) => 'a'.repeat(n);
const okContact = { name: 'Ann', contactNo: '5551234', email: 'ann@example.com', text: 'Hello' };

// Every validation message of docs/spec/01-core-screens.md §5 (Login, Contact) and docs/spec/02-bots-wallet-account.md §5 (OTP, Forgot, Reset).
const cases: [string, string, unknown, string][] = [
  ['login', '/api/cyborxlogin', { email: 'ann' }, a.passwordRequired],
  ['login', '/api/cyborxlogin', { email: 'ann', password: '' }, a.passwordRequired],
  ['login', '/api/cyborxlogin', { email: 'ann', password: '12345' }, a.passwordMin],
  ['login', '/api/cyborxlogin', { email: 'ann', password: long(43) }, a.passwordMax],
  ['login', '/api/cyborxlogin', { password: 'secret1' }, a.loginIdRequired],
  ['login', '/api/cyborxlogin', { email: long(43), password: 'secret1' }, a.loginIdMax],
  ['contact', '/api/contact', { ...okContact, name: '' }, c.nameRequired],
  ['contact', '/api/contact', { ...okContact, name: undefined }, c.nameRequired],
  ['contact', '/api/contact', { ...okContact, contactNo: '' }, c.contactNoRequired],
  ['contact', '/api/contact', { ...okContact, email: '' }, c.emailRequired],
  ['contact', '/api/contact', { ...okContact, email: 'not-an-email' }, c.emailInvalid],
  ['contact', '/api/contact', { ...okContact, email: `${long(40)}@x.io` }, c.emailMax],
  ['contact', '/api/contact', { ...okContact, text: long(501) }, c.textMax],
  ['otp', '/api/verify-otp', { email: 'ann@example.com' }, a.otpRequired],
  ['otp', '/api/verify-otp', { email: 'ann@example.com', otp: '' }, a.otpRequired],
  ['otp', '/api/verify-otp', { email: 'ann@example.com', otp: '12345' }, a.otpDigits],
  ['otp', '/api/verify-otp', { email: 'ann@example.com', otp: '12a456' }, a.otpDigits],
  ['forgot', '/api/forgot-password', {}, a.emailRequired],
  ['forgot', '/api/forgot-password', { email: '' }, a.emailRequired],
  ['forgot', '/api/forgot-password', { email: 'nope' }, a.emailInvalid],
  ['reset', `/api/reset-password/${'A'.repeat(43)}`, {}, a.passwordRequired],
  ['reset', `/api/reset-password/${'A'.repeat(43)}`, { password: '123' }, a.passwordMin],
  [
    'signup',
    '/api/signup',
    { email: 'x@y.io', username: 'ab', contactNo: '5551234', password: 'secret1' },
    a.usernameInvalid,
  ],
  [
    'signup',
    '/api/signup',
    { email: 'x@y.io', username: 'abc', contactNo: 'phone', password: 'secret1' },
    a.contactNoInvalid,
  ],
  ['signup', '/api/signup', { email: 'x@y.io', username: 'abc', password: 'secret1' }, a.contactNoRequired],
];

describe('validation messages', () => {
  it.each(cases)('%s %s %j → %s', async (_area, url, body, message) => {
    const res = await call(t, 'POST', url, body, { ip: `10.7.${Math.floor(Math.random() * 250)}.1` });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('accepts a valid contact message, stores it and mails the administrator', async () => {
    const res = await call(t, 'POST', '/api/contact', okContact, { ip: '10.8.0.1' });
    expect(res).toMatchObject({ status: 200, body: { success: true, message: c.sent } });
    expect(t.mails.at(-1)).toMatchObject({ to: 'admin@example.com', subject: 'Contact request from Ann' });
  });
});

describe('malformed requests never cause a 500', () => {
  it('answers bad JSON with 400 and a message', async () => {
    const res = await call(t, 'POST', '/api/cyborxlogin', undefined, { raw: '{"email": "a",' });
    expect(res).toMatchObject({ status: 400, body: { message: 'The request body is not valid JSON.' } });
  });

  it('answers unknown fields with 400', async () => {
    const res = await call(t, 'POST', '/api/cyborxlogin', { email: 'ann', password: 'secret1', admin: true });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it('answers a huge body with 413', async () => {
    const res = await call(t, 'POST', '/api/contact', { ...okContact, text: long(300_000) });
    expect(res.status).toBe(413);
  });

  it('survives random JSON on every account route', async () => {
    const routes = [
      '/api/signup',
      '/api/verify-otp',
      '/api/resend-otp',
      '/api/cyborxlogin',
      '/api/forgot-password',
      `/api/reset-password/${'B'.repeat(43)}`,
      '/api/contact',
      '/api/disclaimer',
    ];
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.jsonValue(), async (url, body) => {
        n += 1;
        const res = await call(t, 'POST', url, body, { ip: `10.6.${n % 250}.${Math.floor(n / 250)}`, token });
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(res.body.message).toEqual(expect.any(String));
      }),
      { numRuns: 150 },
    );
  });
});

describe('disclaimer and health', () => {
  it('records the disclaimer agreement', async () => {
    expect((await call(t, 'GET', '/api/disclaimeragreementcheck', undefined, { token })).body).toEqual({
      agreed: false,
    });
    const agreed = await call(t, 'POST', '/api/disclaimer', { disclaimerAgree: true }, { token });
    expect(agreed.status).toBe(200);
    expect((await call(t, 'GET', '/api/disclaimeragreementcheck', undefined, { token })).body).toEqual({
      agreed: true,
    });
  });

  it('answers /healthz once the database is up', async () => {
    expect(await call(t, 'GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    expect(await call(t, 'GET', '/api/nope')).toEqual({ status: 404, body: { message: 'Not found' } });
  });
});
