import { notifyManager, QueryClient, timeoutManager } from '@tanstack/react-query';
import { isApiError } from './api-client';
import { pageTimers } from './coalesced-timers';
import { runInNextTask } from './next-task';

// Before any query exists (TanStack's rule: timers of two providers cannot cancel each other). TanStack's
// default for both is the browser's setTimeout: a screen's first commit called it dozens of times.
timeoutManager.setTimeoutProvider(pageTimers);
notifyManager.setScheduler(runInNextTask);

/** A 4xx will answer the same way again; only network failures and 5xx are worth a retry. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 5_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
