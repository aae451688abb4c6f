import type { ApiKeysForm, KeyExchange, KeyPermissions } from '@gridbot/shared';
import { apiKeyApiPaths } from '@gridbot/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const apiKeysQueryKeys = {
  serverIp: ['api-keys', 'server-ip'] as const,
  storedKey: ['api-keys', 'stored-key'] as const,
  connection: ['api-keys', 'connection'] as const,
};

interface ServerIp {
  ip: string;
}
interface StoredKey {
  apiKey: string | null;
  /** The bound key's exchange. */
  exchange?: KeyExchange | null;
}
interface ConnectionStatus {
  connected: boolean;
  /** Where orders go; on the paper exchange (`keysRequired` false) no key is ever needed. */
  venue?: 'paper' | 'binance';
  /** The account's exchange: paper, or the bound key's (null without one). */
  exchange?: 'paper' | KeyExchange | null;
  keysRequired?: boolean;
  /** What the bound Binance key may do, as read at the last check (null on paper or before a check). */
  permissions?: KeyPermissions | null;
}
interface ApiKeysReply {
  success: boolean;
  message: string;
  /** Saved, but not restricted to the server's IP. */
  warning?: string;
}

/** The public IP users whitelist on the exchange; it does not change while the page is open. */
export function useServerIp() {
  return useQuery({
    queryKey: apiKeysQueryKeys.serverIp,
    queryFn: ({ signal }) => api.get<ServerIp>(apiKeyApiPaths.serverIp, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The bound API key (never the secret: the server does not send it back). */
export function useStoredApiKey() {
  return useQuery({
    queryKey: apiKeysQueryKeys.storedKey,
    queryFn: ({ signal }) => api.get<StoredKey>(apiKeyApiPaths.fetch, { signal }),
  });
}

export function useConnectionStatus() {
  return useQuery({
    queryKey: apiKeysQueryKeys.connection,
    queryFn: ({ signal }) => api.get<ConnectionStatus>(apiKeyApiPaths.checkConnection, { signal }),
  });
}

/**
 * Binding or removing keys changes every exchange-backed figure in the app (wallet, balances, bots), so
 * all cached server data is marked stale; only what is on screen refetches.
 */
function useInvalidateAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

export function useSaveApiKeys() {
  const invalidateAll = useInvalidateAll();
  return useMutation({
    // `code`: with two-factor sign-in on, the server asks for it again before keys change.
    mutationFn: (input: ApiKeysForm & { code?: string }) =>
      api.post<ApiKeysReply>(apiKeyApiPaths.save, input),
    onSuccess: invalidateAll,
  });
}

/** docs/spec/01-core-screens.md §7: both keys null disconnects; the server refuses while a bot or cycle runs. */
export function useDisconnectApiKeys() {
  const invalidateAll = useInvalidateAll();
  return useMutation({
    mutationFn: (code?: string) =>
      api.post<ApiKeysReply>(apiKeyApiPaths.save, {
        apiKey: null,
        secretKey: null,
        ...(code ? { code } : {}),
      }),
    onSuccess: invalidateAll,
  });
}
