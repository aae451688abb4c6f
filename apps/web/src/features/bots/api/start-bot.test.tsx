import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { startCheckKey, useStartCheck } from '../../../lib/start-check';
import { json, mockApi } from '../../../testing/mock-api';
import { useStartBot } from './start-bot';

/** A multigrid bot on XRPUSDT that spends most of the free USDT. */
const START = {
  kind: 'multigrid',
  payload: {
    botType: 'Multigrid',
    category: 'Spot',
    selectPair: 'XRPUSDT',
    myStrategy: 'Steady',
    amount: 3585,
  },
} as const;

describe('useStartBot', () => {
  it('drops the start checks read before the start: their free funds are spent now', async () => {
    mockApi({ 'POST /api/startbotdata': () => json({ message: 'Bot started', botId: 'b1' }) });
    const client = createQueryClient();
    const before = [...startCheckKey, 'category=Spot&pair=SOLUSDT'];
    client.setQueryData(before, { freeUsdt: '3635.8' });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useStartBot(), { wrapper });
    await act(() => result.current.mutateAsync(START));
    expect(client.getQueryData(before)).toBeUndefined();
  });

  it('asks an open form for its start check once after the start, not twice', async () => {
    let free = '3635.8';
    const api = mockApi({
      'GET /api/startcheck': () => json({ freeUsdt: free }),
      'POST /api/startbotdata': () => {
        free = '50.8';
        return json({ message: 'Bot started', botId: 'b1' });
      },
    });
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(
      () => ({ check: useStartCheck({ category: 'Spot', pair: 'XRPUSDT' }), start: useStartBot() }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.check.data).toEqual({ freeUsdt: '3635.8' }));
    await act(() => result.current.start.mutateAsync(START));
    await waitFor(() => expect(result.current.check.data).toEqual({ freeUsdt: '50.8' }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(api.callsTo('GET', '/api/startcheck')).toHaveLength(2);
  });
});
