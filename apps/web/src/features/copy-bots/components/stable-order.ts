import { useRef } from 'react';

/**
 * The items in the order they were first seen while the page is open (new ones at the end), for the same `scope`
 * (the filters). A refetch that re-ranks cards would otherwise move another card under the pointer between aiming
 * and clicking; a new scope starts a new order.
 */
export function useStableOrder<T>(
  items: readonly T[] | undefined,
  keyOf: (item: T) => string,
  scope: string,
) {
  const seen = useRef<{ scope: string; order: string[] }>({ scope, order: [] });
  if (seen.current.scope !== scope) seen.current = { scope, order: [] };
  if (!items) return undefined;
  // Adding a key is idempotent, so a repeated render (strict mode) leaves the same order.
  const order = seen.current.order;
  for (const item of items) if (!order.includes(keyOf(item))) order.push(keyOf(item));
  const position = new Map(order.map((key, i) => [key, i]));
  return [...items].sort((a, b) => position.get(keyOf(a))! - position.get(keyOf(b))!);
}
