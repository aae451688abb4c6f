import { waitFor } from '@testing-library/react';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { saveSession } from '../lib/session';
import { json, mockApi, testUser } from '../testing/mock-api';
import { prefetchLoader } from './prefetch';
import { appRoutes } from './router';

/** The route of `path` in the route table, wherever it is nested. */
function findRoute(routes: RouteObject[], path: string): RouteObject {
  const all = (list: RouteObject[]): RouteObject[] =>
    list.flatMap((route) => [route, ...all(route.children ?? [])]);
  const route = all(routes).find((candidate) => candidate.path === path);
  if (!route) throw new Error(`no route ${path}`);
  return route;
}

function runLoader(route: RouteObject, params: Record<string, string> = {}) {
  if (typeof route.loader !== 'function') throw new Error(`${route.path} has no loader`);
  return route.loader({ params, request: new Request('http://localhost/') } as LoaderFunctionArgs);
}

describe('screen data prefetch', () => {
  it("starts the dashboard's data requests from its route, before and without its screen's code", async () => {
    saveSession('test-token', testUser);
    const { calls } = mockApi({
      'GET /api/botstatus': () => json({ bots: [] }),
      'GET /api/scalpbotstatus': () => json({ bots: [] }),
      'GET /api/pichart': () => json({ chartData: [] }),
      'GET /api/scalppichart': () => json({ chartData: [] }),
      'GET /api/totalprofitbookdata': () => json({ totalProfit: 0, lossBook: 0, totalpnl: 0 }),
      'GET /api/gridbots': () => json([]),
    });
    const queryClient = createQueryClient();
    const route = findRoute(appRoutes(queryClient), 'dashboard');
    const lazy = vi.spyOn(route, 'lazy' as never);

    // The loader answers at once: the screen renders as soon as its code is there.
    expect(await runLoader(route)).toBeNull();
    await waitFor(() =>
      expect(calls.map((call) => call.path).sort()).toEqual([
        '/api/botstatus',
        '/api/gridbots',
        '/api/pichart',
        '/api/scalpbotstatus',
        '/api/scalppichart',
        '/api/totalprofitbookdata',
      ]),
    );
    expect(calls.every((call) => call.headers.authorization === 'Bearer test-token')).toBe(true);
    expect(lazy).not.toHaveBeenCalled();
    // The screen's hooks find the answers in the cache under their own keys.
    await waitFor(() => expect(queryClient.getQueryData(['dashboard', 'botstatus'])).toEqual({ bots: [] }));
  });

  it('starts the session check (/api/me) with the signed-in shell', async () => {
    saveSession('test-token', testUser);
    const { calls } = mockApi();
    const routes = appRoutes(createQueryClient());
    const all = (list: RouteObject[]): RouteObject[] =>
      list.flatMap((route) => [route, ...all(route.children ?? [])]);
    const shell = all(routes).find((route) => route.children?.some((child) => child.path === 'dashboard'));
    if (!shell) throw new Error('no signed-in shell route');

    expect(await runLoader(shell)).toBeNull();
    await waitFor(() => expect(calls.map((call) => call.path)).toEqual(['/api/me']));
  });

  it("asks for the running bot of the path's id, its first page of orders and its holdings", async () => {
    saveSession('test-token', testUser);
    const { calls } = mockApi({
      'POST /api/botinfo': () => json({ id: 'bot-1', name: 'BTCUSDT' }),
      'POST /api/orderbook': () => json({ orders: [], pages: 1 }),
      'POST /api/purchasedQty': () => json({ totalpnl: 0 }),
    });
    const route = findRoute(appRoutes(createQueryClient()), 'running-bot/:id');

    expect(await runLoader(route, { id: 'bot-1' })).toBeNull();
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls.map((call) => [call.path, call.body])).toEqual(
      expect.arrayContaining([
        ['/api/botinfo', { botID: 'bot-1' }],
        ['/api/orderbook', { botID: 'bot-1', page: 1 }],
        ['/api/purchasedQty', { botID: 'bot-1' }],
      ]),
    );
  });

  it('asks for nothing without a session (the guard sends the visitor to the login page)', async () => {
    const load = vi.fn(async () => () => undefined);
    const loader = prefetchLoader(createQueryClient(), load);

    expect(
      await loader({ params: {}, request: new Request('http://localhost/') } as LoaderFunctionArgs),
    ).toBeNull();
    expect(load).not.toHaveBeenCalled();
  });
});
