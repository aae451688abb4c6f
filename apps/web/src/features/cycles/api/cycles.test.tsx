import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { useStartCheck } from '../../../lib/start-check';
import { json, mockApi } from '../../../testing/mock-api';
import { useStartCycle } from './cycles';

describe('useStartCycle', () => {
  it('has an open form read its free funds again once the cycle has started', async () => {
    let free = '1000';
    const api = mockApi({
      'GET /api/startcheck': () => json({ freeUsdt: free }),
      'GET /api/livecycles': () => json({ cycles: [] }),
      'POST /api/startcycledata': () => {
        free = '800';
        return json({ message: 'Cycle started' });
      },
    });
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(
      () => ({ check: useStartCheck({ category: 'Spot', pair: 'BTCUSDT' }), start: useStartCycle() }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.check.data).toEqual({ freeUsdt: '1000' }));
    await act(() =>
      result.current.start.mutateAsync({
        category: 'Spot',
        pair: 'BTCUSDT',
        amount: 200,
        priceReachAt: 90000,
        sellPriceAt: 95000,
        cycleCount: 1,
      }),
    );
    // Well before the 10 s refresh.
    await waitFor(() => expect(result.current.check.data).toEqual({ freeUsdt: '800' }), { timeout: 2000 });
    expect(api.callsTo('GET', '/api/startcheck')).toHaveLength(2);
  });
});
