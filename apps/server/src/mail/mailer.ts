import type { Db } from '@gridbot/db';
import nodemailer from 'nodemailer';
import { type Clock, systemClock } from '../lib/clock';
import { deleteExpiredOutboxMails, insertOutboxMail, latestOutboxMails } from './outbox.repo';
import { codeAndLinkLifetimes } from './templates';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail. SMTP when `SMTP_URL` is set; otherwise the local outbox (docs/architecture.md §1). */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

/**
 * Writes each mail to the outbox table and prints it, so codes and links can be read without a mail server.
 * `printBodies: false` prints only the recipient and subject: a production log must not carry reset links.
 * Each write first deletes the mails whose code or link has expired (`codeAndLinkLifetimes`), so the outbox
 * holds no more of them than still work.
 */
export function createOutboxMailer(
  db: Db,
  log: (line: string) => void,
  options: { printBodies?: boolean; clock?: Clock } = {},
): Mailer {
  const printBodies = options.printBodies ?? true;
  const clock = options.clock ?? systemClock;
  return {
    async send(mail) {
      const now = clock.now();
      await deleteExpiredOutboxMails(db, now, codeAndLinkLifetimes);
      await insertOutboxMail(db, mail, now);
      const head = `[outbox] to=${mail.to} subject="${mail.subject}"`;
      log(printBodies ? `${head}\n${mail.text}` : head);
    },
  };
}

/** The mailer of a process: SMTP when `SMTP_URL` is set, else the outbox (bodies printed outside production). */
export function mailerFromEnv(
  env: { SMTP_URL?: string; MAIL_FROM: string; NODE_ENV: string },
  db: Db,
  log: (line: string) => void = (line) => console.log(line),
): Mailer {
  if (env.SMTP_URL) return createSmtpMailer(env.SMTP_URL, env.MAIL_FROM);
  return createOutboxMailer(db, log, { printBodies: env.NODE_ENV !== 'production' });
}

/** The newest mails of the outbox (GET /dev/mailbox), after the expired codes and links are deleted. */
export async function listOutbox(db: Db, limit = 100, clock: Clock = systemClock) {
  await deleteExpiredOutboxMails(db, clock.now(), codeAndLinkLifetimes);
  const rows = await latestOutboxMails(db, limit);
  return rows.map(({ to, subject, text, sentAt }) => ({ to, subject, text, sentAt: sentAt.toISOString() }));
}
