import { OTP_VALID_MINUTES, RESET_LINK_VALID_MINUTES } from '@gridbot/shared';
import type { Mail } from './mailer';
import type { OutboxLifetime } from './outbox.repo';

const OTP_SUBJECT = 'Your Gridbot verification code: ';
const RESET_SUBJECT = 'Reset your Gridbot password';
const MINUTE_MS = 60_000;

/**
 * The mails that carry a code or a link, known by the subject their template writes, and how long that code
 * or link works: the outbox deletes such a mail once it has (outbox.repo.ts), since it is of no use after
 * that and, until then, anyone who reads the outbox can sign up or reset a password with it.
 */
export const codeAndLinkLifetimes: readonly OutboxLifetime[] = [
  { subjectPrefix: OTP_SUBJECT, lifetimeMs: OTP_VALID_MINUTES * MINUTE_MS },
  { subjectPrefix: RESET_SUBJECT, lifetimeMs: RESET_LINK_VALID_MINUTES * MINUTE_MS },
];

export function otpMail(to: string, code: string): Mail {
  return {
    to,
    subject: `${OTP_SUBJECT}${code}`,
    text: `Your verification code is ${code}.\nIt is valid for ${OTP_VALID_MINUTES} minutes. If you did not sign up, ignore this e-mail.`,
  };
}

export function resetMail(to: string, link: string): Mail {
  return {
    to,
    subject: RESET_SUBJECT,
    text: `Open this link to choose a new password:\n${link}\nIt works once and expires in ${RESET_LINK_VALID_MINUTES} minutes. If you did not ask for it, ignore this e-mail.`,
  };
}

export function contactMail(
  to: string,
  from: { name: string; email: string; contactNo: string; text: string },
): Mail {
  return {
    to,
    subject: `Contact request from ${from.name}`,
    text: `Name: ${from.name}\nE-mail: ${from.email}\nContact No: ${from.contactNo}\n\n${from.text}`,
  };
}
