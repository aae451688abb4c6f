import { PUSH_CHANNEL_PATH, type PushMessage } from '@gridbot/shared';
import { type Query, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { accountQueryRoot } from './account-queries';
import { runInNextTask } from './next-task';
import { getToken } from './session';

export type PushState = 'connecting' | 'open' | 'closed';

/** Waits between reconnects: 1 s doubling to 30 s, with jitter so a restarted server is not stormed. */
export function reconnectDelayMs(failures: number, random = Math.random()): number {
  const base = Math.min(1_000 * 2 ** failures, 30_000);
  return Math.round(base * (0.5 + random / 2));
}

const PRICE_KEYS = [
  (market: string, symbol: string) => ['market', 'live-price', market, symbol],
  (market: string, symbol: string) => ['bots', 'live-price', market, symbol],
  (market: string, symbol: string) => [
    'cycles',
    'live-price',
    market === 'future' ? 'Future' : 'Spot',
    symbol,
  ],
];

/** The pairs whose live price some query on screen shows (`[…, 'live-price', market, symbol]`). */
export function pairsOnScreen(client: QueryClient): { market: 'spot' | 'future'; symbol: string }[] {
  const pairs = new Map<string, { market: 'spot' | 'future'; symbol: string }>();
  for (const query of client.getQueryCache().getAll()) {
    const key = query.queryKey;
    if (key[1] !== 'live-price' || !query.isActive()) continue;
    const market = String(key[2]).toLowerCase() === 'future' ? 'future' : 'spot';
    const symbol = String(key[3] ?? '');
    if (/^[A-Z0-9]{2,20}$/.test(symbol)) pairs.set(`${market}:${symbol}`, { market, symbol });
  }
  return [...pairs.values()];
}

/**
 * Refetches what shows a bot when it changes. Fills can come faster than a refetch takes: restarting a
 * refetch on every event would starve it, and ignoring events during one could miss the newest fill. So each
 * query runs one refetch at a time, and events meanwhile ask it for exactly one more afterwards. Per query,
 * not per bot: the order book shows a fill as soon as its own answer is back, whatever a slower figure on
 * the same page (or a list on another) is still waiting for. A fetch of the query's own (its poll) that is
 * out when a change comes is replaced: it was asked before the change, so its answer may not hold it.
 */
function botRefresher(client: QueryClient) {
  const running = new Map<string, { again: boolean }>();
  const refetch = (query: Query): void => {
    const current = running.get(query.queryHash);
    if (current) {
      current.again = true;
      return;
    }
    const state = { again: false };
    running.set(query.queryHash, state);
    void client
      .refetchQueries({ queryKey: query.queryKey, exact: true }, { cancelRefetch: true })
      .catch(() => undefined)
      .finally(() => {
        running.delete(query.queryHash);
        if (state.again) refetch(query);
      });
  };
  return (botId: string): void => {
    const about = (query: Query) =>
      query.queryKey.includes(botId) ||
      ['dashboard', 'cycles', 'history'].includes(String(query.queryKey[0]));
    // Stale everywhere (a page opened later fetches afresh); refetched now where it is on screen.
    void client.invalidateQueries({ predicate: about, refetchType: 'none' });
    // What the account holds changed too (balances, a position closed, orders cancelled): stale, so the next
    // page or poll reads it afresh, but not read now: each read costs exchange requests, and a busy account's
    // fills would keep it reading.
    void client.invalidateQueries({ queryKey: accountQueryRoot, refetchType: 'none' });
    for (const query of client.getQueryCache().findAll({ predicate: about, type: 'active' })) refetch(query);
  };
}

/**
 * Makes the function that applies one pushed message to the query cache: a price replaces the cached live
 * price; a change of a bot refetches the queries about it (the order book, its figures) and the lists it
 * appears in; a notification refetches the bell. Polling still runs beside this: a lost message is only late.
 */
export function pushApplier(client: QueryClient): (message: PushMessage) => void {
  const refreshBot = botRefresher(client);
  return (message) => {
    switch (message.type) {
      case 'price':
        for (const keyOf of PRICE_KEYS) {
          client.setQueryData(keyOf(message.market, message.symbol), (old: unknown) =>
            old && typeof old === 'object' ? { ...old, price: message.price } : old,
          );
        }
        return;
      case 'bot':
        refreshBot(message.botId);
        return;
      case 'notification':
        void client.invalidateQueries({ queryKey: ['notifications'] });
        return;
      default:
        return;
    }
  };
}

/**
 * The push channel of a signed-in tab: one WebSocket to /api/push, authenticated by its first message
 * (the token never goes in the URL), reconnecting with backoff. It tells the server which prices the page
 * shows whenever the set of queries changes.
 */
export function usePushChannel(): PushState {
  const client = useQueryClient();
  const [state, setState] = useState<PushState>('connecting');

  useEffect(() => {
    if (typeof WebSocket === 'undefined') return;
    let socket: WebSocket | undefined;
    let failures = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let sentPairs = '';
    const apply = pushApplier(client);

    const sendPairs = () => {
      if (socket?.readyState !== WebSocket.OPEN) return;
      const pairs = pairsOnScreen(client);
      const text = JSON.stringify(pairs);
      if (text === sentPairs) return;
      sentPairs = text;
      socket.send(JSON.stringify({ type: 'prices', pairs }));
    };

    const connect = () => {
      const token = getToken();
      if (stopped || !token) return;
      setState('connecting');
      const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
      const ws = new WebSocket(`${protocol}//${window.location.host}${PUSH_CHANNEL_PATH}`);
      socket = ws;
      ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token }));
      ws.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as PushMessage;
        if (message.type === 'ready') {
          failures = 0;
          sentPairs = '';
          setState('open');
          sendPairs();
          return;
        }
        apply(message);
      };
      ws.onclose = () => {
        if (socket !== ws) return;
        socket = undefined;
        setState('closed');
        if (stopped) return;
        retry = setTimeout(connect, reconnectDelayMs(failures));
        failures += 1;
      };
    };

    const unsubscribe = client.getQueryCache().subscribe((event) => {
      if (
        event.type === 'added' ||
        event.type === 'removed' ||
        event.type === 'observerAdded' ||
        event.type === 'observerRemoved'
      ) {
        sendPairs();
      }
    });
    // In a task of its own, not in the effects of the commit that drew the page (docs/benchmarks.md, Web).
    runInNextTask(connect);
    return () => {
      stopped = true;
      unsubscribe();
      clearTimeout(retry);
      socket?.close(1000, 'page closed');
    };
  }, [client]);

  return state;
}
