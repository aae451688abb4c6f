import { type Db, outboxMails } from '@gridbot/db';
import { desc } from 'drizzle-orm';
import nodemailer from 'nodemailer';

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

/** Writes each mail to the outbox table and prints it, so codes and links can be read without a mail server. */
export function createOutboxMailer(db: Db, log: (line: string) => void): Mailer {
  return {
    async send(mail) {
      await db.insert(outboxMails).values(mail);
      log(`[outbox] to=${mail.to} subject="${mail.subject}"\n${mail.text}`);
    },
  };
}

export async function listOutbox(db: Db, limit = 100) {
  const rows = await db.select().from(outboxMails).orderBy(desc(outboxMails.sentAt)).limit(limit);
  return rows.map(({ to, subject, text, sentAt }) => ({ to, subject, text, sentAt: sentAt.toISOString() }));
}
