import { notificationEvents } from '@gridbot/db';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../../mail/mailer';
import { call } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { NotificationDispatcher } from '../notifications/dispatcher';
import { fund, platform, signUp } from '../platform/testing/platform-fixtures';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7'; // EIP-55 test vector
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let t: TestApp;
let smtp: SMTPServer;
let port = 0;
const received: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        received.push(raw);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await t.close();
});

/** Soft line breaks of quoted-printable bodies joined again, so sentences can be matched. */
const unfolded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=E2=80=A6/g, '…');

describe('security e-mails through the notification outbox and SMTP', () => {
  it('mails a new-device login, a key change and a withdrawal request, whatever the routing, once each', async () => {
    const user = await signUp(t);
    await fund(t, user.id, 'usdtRewardToken', '50');
    const login = await call(
      t,
      'POST',
      '/api/cyborxlogin',
      { email: user.email, password: user.password },
      { ip: '198.51.100.23', userAgent: CHROME_MAC },
    );
    expect(login.status).toBe(200);
    // The same browser at the same address again is a known device: no second mail.
    await call(
      t,
      'POST',
      '/api/cyborxlogin',
      { email: user.email, password: user.password },
      {
        ip: '198.51.100.23',
        userAgent: CHROME_MAC,
      },
    );
    await call(
      t,
      'POST',
      '/api/apikeys',
      { apiKey: 'paperkey-778899', secretKey: 'paper-secret-x' },
      {
        token: user.token,
      },
    );
    const withdrawal = await platform(t, '/withdraw/create', user.token, {
      amount: '20',
      toAddress: ADDRESS,
    });
    expect(withdrawal.status).toBe(200);

    const events = await t.deps.db
      .select({ type: notificationEvents.type })
      .from(notificationEvents)
      .where(eq(notificationEvents.userId, user.id));
    expect(events.map((e) => e.type).sort()).toEqual([
      'api_key_changed',
      'new_device_login',
      'withdrawal_requested',
    ]);

    const dispatcher = new NotificationDispatcher({
      db: t.deps.db,
      mailer: createSmtpMailer(`smtp://127.0.0.1:${port}`, 'Gridbot <no-reply@gridbot.local>'),
      secrets: t.deps.secrets,
      publicUrl: 'http://localhost:3000',
      now: () => t.clock.now(),
      log: () => undefined,
    });
    expect(await dispatcher.runOnce()).toBe(3);
    expect(await dispatcher.runOnce()).toBe(0);
    const mine = received.map(unfolded).filter((raw) => raw.includes(`To: ${user.email}`));
    expect(mine).toHaveLength(3);
    const bySubject = (subject: string) => mine.find((raw) => raw.includes(`Subject: Gridbot: ${subject}`));
    expect(bySubject('Login from a new device')).toContain('Chrome 131 on macOS, IP 198.51.100.23');
    expect(bySubject('API key changed')).toContain('A new exchange API key paperk… was saved');
    expect(bySubject('API key changed')).not.toContain('paper-secret-x');
    expect(bySubject('Withdrawal requested')).toContain(
      `A withdrawal of 20 USDT to ${ADDRESS} was requested`,
    );
  });
});
