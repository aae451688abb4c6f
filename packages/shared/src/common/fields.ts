import { z } from 'zod';

/**
 * A required string: a missing or non-string value reports `requiredMessage` (so a form and the API show
 * the same words whether the field was left out or left empty), and so does an empty or blank one.
 */
export function requiredString(requiredMessage: string) {
  return z.string({ error: requiredMessage }).trim().min(1, requiredMessage);
}

/** An optional string that treats '' and null as absent. */
export function optionalString(max: number, tooLongMessage: string) {
  return z
    .string()
    .trim()
    .max(max, tooLongMessage)
    .nullish()
    .transform((value) => (value ? value : undefined));
}

/** First message of a zod error: what a form shows under a field and what the API answers with 400. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid request.';
}
