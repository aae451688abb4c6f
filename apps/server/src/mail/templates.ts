import { OTP_VALID_MINUTES, RESET_LINK_VALID_MINUTES } from '@gridbot/shared';
import type { Mail } from './mailer';

export function otpMail(to: string, code: string): Mail {
  return {
    to,
    subject: `Your Gridbot verification code: ${code}`,
    text: `Your verification code is ${code}.\nIt is valid for ${OTP_VALID_MINUTES} minutes. If you did not sign up, ignore this e-mail.`,
  };
}

export function resetMail(to: string, link: string): Mail {
  return {
    to,
    subject: 'Reset your Gridbot password',
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
