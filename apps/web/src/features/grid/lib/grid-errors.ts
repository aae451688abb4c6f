import { botMessages } from '@gridbot/shared';
import { errorMessage, isApiError } from '../../../lib/api-client';

/** What a failed grid call says: the API's `message`; no answer at all, the app's words for that; else `fallback`. */
export function gridErrorMessage(error: unknown, fallback: string): string {
  if (isApiError(error) && error.status === 0) return botMessages.noResponse;
  return errorMessage(error, fallback);
}
