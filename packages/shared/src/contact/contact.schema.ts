import { z } from 'zod';
import { requiredString } from '../common/fields';

export const contactMessages = {
  nameRequired: 'Name is required.',
  nameMax: 'Name must be at most 100 characters long', // (ours)
  contactNoRequired: 'Contact No is required.',
  contactNoMax: 'Contact No must be at most 20 characters long', // (ours)
  emailRequired: 'Email is required.',
  emailInvalid: 'Email is invalid.',
  emailMax: 'Email must be at most 42 characters long', // (ours)
  textMax: 'Message must be at most 500 characters long',
  sent: 'Your message has been sent.',
  failed: 'There was an error sending your message. Please try again.',
} as const;

export const CONTACT_TEXT_MAX = 500;

/** POST /api/contact (docs/spec/01-core-screens.md §5 Contact). */
export const contactInputSchema = z.strictObject({
  name: requiredString(contactMessages.nameRequired).max(100, contactMessages.nameMax),
  contactNo: requiredString(contactMessages.contactNoRequired).max(20, contactMessages.contactNoMax),
  email: requiredString(contactMessages.emailRequired)
    .max(42, contactMessages.emailMax)
    .email(contactMessages.emailInvalid),
  text: z
    .string({ error: contactMessages.textMax })
    .max(CONTACT_TEXT_MAX, contactMessages.textMax)
    .default(''),
});
export type ContactInput = z.input<typeof contactInputSchema>;

/** POST /api/disclaimer. */
export const disclaimerInputSchema = z.strictObject({
  disclaimerAgree: z.literal(true, { error: 'You must agree to the disclaimer.' }),
});
export type DisclaimerInput = z.infer<typeof disclaimerInputSchema>;
