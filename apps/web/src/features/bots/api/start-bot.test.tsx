import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { startCheckKey } from '../../../lib/start-check';
import { json, mockApi } from '../../../testing/mock-api';
import { useStartBot } from './start-bot';

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
    await act(() =>
      result.current.mutateAsync({
        kind: 'multigrid',
        payload: {
          botType: 'Multigrid',
          category: 'Spot',
          selectPair: 'XRPUSDT',
          myStrategy: 'Steady',
          amount: 3585,
        },
      }),
    );
    expect(client.getQueryData(before)).toBeUndefined();
  });
});
