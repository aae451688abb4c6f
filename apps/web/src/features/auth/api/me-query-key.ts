/**
 * The cache key of the signed-in user (`get-me.ts`). On its own so that login and sign-up can fill the cache
 * without loading the query hooks, which their screens do not use (the login route's script budget).
 */
export const meQueryKey = ['me'] as const;
