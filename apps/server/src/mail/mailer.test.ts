import { createTestDb, type DbHandle, outboxMails } from '@gridbot/db';
import { OTP_VALID_MINUTES, RESET_LINK_VALID_MINUTES } from '@gridbot/shared';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { manualClock } from '../lib/clock';
import { createOutboxMailer, createSmtpMailer, listOutbox, mailerFromEnv } from './mailer';
import { contactMail, otpMail, resetMail } from './templates';

describe('SMTP mailer', () => {
  const received: string[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
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
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers through a real SMTP server on loopback', async () => {
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, 'Gridbot <no-reply@gridbot.local>');
    await mailer.send({ to: 'ann@example.com', subject: 'Your code', text: 'Code 123456' });
    expect(received).toHaveLength(1);
    expect(received[0]).toContain('To: ann@example.com');
    expect(received[0]).toContain('Subject: Your code');
    expect(received[0]).toContain('Code 123456');
  });
});

describe('outbox mailer', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDb();
  });
  afterAll(async () => {
    await handle.close();
  });

  it('keeps mails and lists them newest first', async () => {
    const lines: string[] = [];
    const mailer = createOutboxMailer(handle.db, (line) => lines.push(line));
    await mailer.send({ to: 'a@example.com', subject: 'first', text: 'one' });
    // Newest first is by the time of sending: the second mail goes out in a later millisecond than the first.
    const [first] = await listOutbox(handle.db);
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(Date.parse(first!.sentAt)), { interval: 1 });
    await mailer.send({ to: 'b@example.com', subject: 'second', text: 'two' });
    const mails = await listOutbox(handle.db);
    expect(mails.map((m) => m.subject)).toEqual(['second', 'first']);
    expect(mails[0]).toMatchObject({ to: 'b@example.com', text: 'two', sentAt: expect.any(String) });
    expect(lines[0]).toContain('subject="first"');
  });
});

describe('outbox lifetimes', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await createTestDb();
  });
  afterAll(async () => {
    await handle.close();
  });

  const subjectsIn = async () =>
    (await handle.db.select({ subject: outboxMails.subject }).from(outboxMails)).map((r) => r.subject).sort();

  it('deletes a mail once its code or link has expired, on the next write or read, and keeps the others', async () => {
    const clock = manualClock(new Date('2026-03-01T12:00:00Z'));
    const mailer = createOutboxMailer(handle.db, () => undefined, { clock });
    const otp = otpMail('new@example.com', '123456');
    const reset = resetMail('old@example.com', 'http://localhost:3000/resetpassword/abc');
    const contact = contactMail('admin@example.com', {
      name: 'Ann',
      email: 'a@x',
      contactNo: '1',
      text: 'hi',
    });
    for (const mail of [otp, reset, contact]) await mailer.send(mail);

    // A sign-up code works for OTP_VALID_MINUTES: on the minute it still does.
    clock.advance(OTP_VALID_MINUTES * 60_000);
    expect((await listOutbox(handle.db, 100, clock)).map((m) => m.subject).sort()).toEqual(
      [otp.subject, reset.subject, contact.subject].sort(),
    );
    clock.advance(1);
    expect((await listOutbox(handle.db, 100, clock)).map((m) => m.subject).sort()).toEqual(
      [reset.subject, contact.subject].sort(),
    );

    // The reset link's lifetime passes; the next write deletes it before anyone lists the outbox.
    clock.advance((RESET_LINK_VALID_MINUTES - OTP_VALID_MINUTES) * 60_000);
    await mailer.send(otpMail('later@example.com', '654321'));
    expect(await subjectsIn()).toEqual(
      [contact.subject, otpMail('later@example.com', '654321').subject].sort(),
    );
  });
});

describe('the mailer of a process without SMTP', () => {
  it('prints the body outside production, and only the recipient and subject in production', async () => {
    const handle = await createTestDb();
    try {
      const mail = {
        to: 'c@example.com',
        subject: 'Reset your password',
        text: 'https://x/reset?token=secret',
      };
      const dev: string[] = [];
      await mailerFromEnv({ MAIL_FROM: 'a@b', NODE_ENV: 'development' }, handle.db, (l) => dev.push(l)).send(
        mail,
      );
      expect(dev.join('\n')).toContain('token=secret');
      const prod: string[] = [];
      await mailerFromEnv({ MAIL_FROM: 'a@b', NODE_ENV: 'production' }, handle.db, (l) => prod.push(l)).send(
        mail,
      );
      expect(prod).toEqual(['[outbox] to=c@example.com subject="Reset your password"']);
      expect((await listOutbox(handle.db))[0]).toMatchObject({ text: mail.text });
    } finally {
      await handle.close();
    }
  });
});
