import type { SessionUser } from '@gridbot/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { meQueryKey, useMe } from '../features/auth/api/get-me';

/**
 * The platform screens read the balances from the session's user data (docs/spec/02-bots-wallet-account.md §3) and ask for it again
 * after every money movement. The guarded layout renders them only once the user data is there.
 */
export function usePlatformAccount(): { account: SessionUser | undefined; refreshAccount: () => void } {
  const me = useMe();
  const queryClient = useQueryClient();
  const refreshAccount = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  }, [queryClient]);
  return { account: me.data, refreshAccount };
}
