import { cycleMessages } from '@gridbot/shared';
import { isApiError } from '../../../lib/api-client';

/** The marker of a refused start that the spec shows word for word (docs/spec/02-bots-wallet-account.md §8 Cycles). */
const ALREADY_RUNNING = 'A bot is already running';

/**
 * docs/spec/02-bots-wallet-account.md §8: a message containing 'A bot is already running' is shown as sent; otherwise the server's
 * message, or 'An error occurred while starting the cycle.' when the server said nothing.
 */
export function startCycleErrorMessage(error: unknown): string {
  if (!isApiError(error)) return cycleMessages.startError;
  if (error.message.includes(ALREADY_RUNNING)) return error.message;
  return error.fromServer ? error.message : cycleMessages.startError;
}

export interface FailureToast {
  title: string;
  /** The server's reason, when it gave one. */
  description?: string;
}

/**
 * docs/spec/02-bots-wallet-account.md §8 edit and stop: 'Failed to …' when the server refused (4xx), with its reason underneath;
 * 'An error occurred while …' when the call itself failed (no answer, 5xx).
 */
export function failureToast(error: unknown, failed: string, errored: string): FailureToast {
  if (isApiError(error) && error.status >= 400 && error.status < 500) {
    const reason = error.fromServer && error.message !== failed ? error.message : undefined;
    return { title: failed, description: reason };
  }
  return { title: errored };
}
