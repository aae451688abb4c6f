import type { MarketFeed } from '@gridbot/exchange';
import { authApiPaths } from '@gridbot/shared';
import { lastOtp, type TestApp } from './test-app';

export interface CallOptions {
  token?: string;
  ip?: string;
  /** Raw payload sent as is (for malformed JSON tests). */
  raw?: string;
  userAgent?: string;
}

/** One JSON request through app.inject(), answering status and parsed body. */
export async function call(
  t: TestApp<MarketFeed>,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: unknown,
  options: CallOptions = {},
) {
  const response = await t.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? '10.0.0.1',
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      ...(body !== undefined || options.raw !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(options.raw !== undefined
      ? { payload: options.raw }
      : body !== undefined
        ? { payload: JSON.stringify(body) }
        : {}),
  });
  const text = response.body;
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    json = { raw: text };
  }
  return { status: response.statusCode, body: json };
}

let counter = 0;
/** A fresh, valid sign-up payload with unique e-mail and username. */
export function newSignup(prefix = 'user') {
  counter += 1;
  const id = `${prefix}${counter}${Math.floor(Math.random() * 1e6)}`;
  return {
    email: `${id}@example.com`,
    username: id.slice(0, 20),
    contactNo: '+15551234567',
    password: 'secret123',
  };
}

/** Signs a user up through the API (sign-up, mailed code, verify) and answers the token. */
export async function registerUser(
  t: TestApp<MarketFeed>,
  prefix = 'user',
  ip = `10.9.${counter % 250}.${Math.floor(counter / 250) % 250}`,
) {
  const data = newSignup(prefix);
  const signup = await call(t, 'POST', authApiPaths.signup, data, { ip });
  if (signup.status !== 200) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const verified = await call(
    t,
    'POST',
    authApiPaths.verifyOtp,
    { ...data, otp: lastOtp(t.mails, data.email) },
    { ip },
  );
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
  return { ...data, token: String(verified.body.token) };
}

/** A registered member: its bearer auth and its user id. */
export async function registerMember(t: TestApp<MarketFeed>, prefix = 'user') {
  const user = await registerUser(t, prefix);
  const auth = { token: user.token };
  const me = await call(t, 'GET', '/api/me', undefined, auth);
  return { auth, id: (me.body.user as { id: string }).id };
}
