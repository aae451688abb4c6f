import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { pairsOnScreen, pushApplier, reconnectDelayMs } from './push-channel';

/** Lets every promise callback and task already queued run: the query client's fetches and notifications. */
const flushTasks = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('push channel client', () => {
  it('puts a pushed price into every cached live price of that pair', () => {
    const client = new QueryClient();
    client.setQueryData(['market', 'live-price', 'spot', 'BTCUSDT'], { pair: 'BTCUSDT', price: '1' });
    client.setQueryData(['cycles', 'live-price', 'Future', 'BTCUSDT'], { pair: 'BTCUSDT', price: '1' });
    client.setQueryData(['market', 'live-price', 'spot', 'ETHUSDT'], { pair: 'ETHUSDT', price: '1' });
    const apply = pushApplier(client);
    apply({ type: 'price', market: 'spot', symbol: 'BTCUSDT', price: '97000.5' });
    apply({ type: 'price', market: 'future', symbol: 'BTCUSDT', price: '96999' });
    expect(client.getQueryData(['market', 'live-price', 'spot', 'BTCUSDT'])).toEqual({
      pair: 'BTCUSDT',
      price: '97000.5',
    });
    expect(client.getQueryData(['cycles', 'live-price', 'Future', 'BTCUSDT'])).toEqual({
      pair: 'BTCUSDT',
      price: '96999',
    });
    expect(client.getQueryData(['market', 'live-price', 'spot', 'ETHUSDT'])).toEqual({
      pair: 'ETHUSDT',
      price: '1',
    });
  });

  it("refetches the queries about a changed bot and the lists, not other bots' pages", () => {
    const client = new QueryClient();
    const keys = [
      ['bots', 'multigrid', 'bot-1', 'orderbook', 1],
      ['bots', 'multigrid', 'bot-2', 'orderbook', 1],
      ['dashboard', 'botstatus'],
      ['strategies', 'own'],
    ];
    for (const key of keys) client.setQueryData(key, {});
    pushApplier(client)({ type: 'bot', botId: 'bot-1', change: 'fill', status: 'Live' });
    const stale = keys.filter((key) => client.getQueryState(key)?.isInvalidated);
    expect(stale).toEqual([keys[0], keys[2]]);
  });

  it("marks what the exchange account holds stale on a bot's change, without reading the exchange now", async () => {
    const client = new QueryClient();
    let fetches = 0;
    // The dashboard's positions panel on screen: a closed position must not stay shown to whoever opens a page.
    const observer = new QueryObserver(client, {
      queryKey: ['wallet', 'positions'],
      queryFn: () => {
        fetches += 1;
        return { positions: [] };
      },
      staleTime: 5_000,
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await flushTasks();
    expect(fetches).toBe(1);
    client.setQueryData(['wallet', 'open-orders'], { orders: [] });
    pushApplier(client)({ type: 'bot', botId: 'bot-1', change: 'fill', status: 'Stopped' });
    await flushTasks();
    expect(client.getQueryState(['wallet', 'positions'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['wallet', 'open-orders'])?.isInvalidated).toBe(true);
    // Read at the next mount or poll, not once per fill: each read costs exchange requests.
    expect(fetches).toBe(1);
    unsubscribe();
  });

  it('runs one refetch of a query at a time, and one more for the fills that came during it', async () => {
    const client = new QueryClient();
    let fetches = 0;
    let release: () => void = () => undefined;
    const observer = new QueryObserver(client, {
      queryKey: ['bots', 'multigrid', 'bot-1', 'orderbook', 1],
      queryFn: () => {
        fetches += 1;
        return new Promise((resolve) => {
          release = () => resolve({ fetches });
        });
      },
    });
    const unsubscribe = observer.subscribe(() => undefined);
    release();
    await flushTasks();
    const apply = pushApplier(client);
    for (let i = 0; i < 5; i += 1) apply({ type: 'bot', botId: 'bot-1', change: 'fill', status: 'Live' });
    expect(fetches).toBe(2);
    release();
    await flushTasks();
    expect(fetches).toBe(3);
    release();
    await flushTasks();
    expect(fetches).toBe(3);
    unsubscribe();
  });

  it('fetches again for a fill pushed while a poll is out, whose answer may not hold the fill', async () => {
    const client = new QueryClient();
    const answers: ((value: unknown) => void)[] = [];
    const observer = new QueryObserver(client, {
      queryKey: ['bots', 'multigrid', 'bot-1', 'orderbook', 1],
      queryFn: () => new Promise((resolve) => answers.push(resolve)),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    answers[0]?.('first page');
    await flushTasks();
    void observer.refetch(); // the 10 s poll, asked before the fill committed
    await flushTasks();
    expect(answers).toHaveLength(2);
    pushApplier(client)({ type: 'bot', botId: 'bot-1', change: 'fill', status: 'Live' });
    await flushTasks();
    expect(answers).toHaveLength(3);
    answers[1]?.('without the fill');
    answers[2]?.('with the fill');
    await flushTasks();
    expect(observer.getCurrentResult().data).toBe('with the fill');
    unsubscribe();
  });

  it("refetches the order book as soon as its own answer is back, not after a slower query of the bot's page", async () => {
    const client = new QueryClient();
    const fetched: string[] = [];
    let releaseSlow: () => void = () => undefined;
    const watch = (key: unknown[], queryFn: () => Promise<unknown>) =>
      new QueryObserver(client, { queryKey: key, queryFn }).subscribe(() => undefined);
    const stopBook = watch(['bots', 'multigrid', 'bot-1', 'orderbook', 1], async () => {
      fetched.push('orderbook');
      return fetched.length;
    });
    const stopInfo = watch(['bots', 'multigrid', 'bot-1', 'info'], () => {
      fetched.push('info');
      return new Promise((resolve) => {
        releaseSlow = () => resolve(fetched.length);
      });
    });
    await flushTasks();
    releaseSlow();
    await flushTasks();
    fetched.length = 0;
    const apply = pushApplier(client);
    apply({ type: 'bot', botId: 'bot-1', change: 'fill', status: 'Live' });
    await flushTasks();
    // A second fill while the slow query is still out: the order book fetches again at once.
    apply({ type: 'bot', botId: 'bot-1', change: 'fill', status: 'Live' });
    await flushTasks();
    expect(fetched.filter((name) => name === 'orderbook')).toHaveLength(2);
    expect(fetched.filter((name) => name === 'info')).toHaveLength(1);
    releaseSlow();
    await flushTasks();
    expect(fetched.filter((name) => name === 'info')).toHaveLength(2);
    stopBook();
    stopInfo();
  });

  it('asks for the prices that mounted queries show', () => {
    const client = new QueryClient();
    const observer = new QueryObserver(client, {
      queryKey: ['market', 'live-price', 'future', 'SOLUSDT'],
      queryFn: () => new Promise(() => undefined),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    client.setQueryData(['bots', 'live-price', 'spot', 'ETHUSDT'], {}); // cached, not on screen
    expect(pairsOnScreen(client)).toEqual([{ market: 'future', symbol: 'SOLUSDT' }]);
    unsubscribe();
  });

  it('waits longer after each failed reconnect, up to 30 s', () => {
    expect(reconnectDelayMs(0, 1)).toBe(1_000);
    expect(reconnectDelayMs(3, 1)).toBe(8_000);
    expect(reconnectDelayMs(10, 1)).toBe(30_000);
    expect(reconnectDelayMs(10, 0)).toBe(15_000);
  });
});
