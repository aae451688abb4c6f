import { type CandleSpan, type HistoryInterval, marketApiPaths } from '@gridbot/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/candles/coverage: the periods with candles of the pair and interval, real history first. */
export function useCandleCoverage(symbol: string, category: 'spot' | 'future', interval: HistoryInterval) {
  return useQuery({
    queryKey: ['candles', 'coverage', symbol, category, interval],
    queryFn: ({ signal }) =>
      api.get<{ spans: CandleSpan[] }>(
        `${marketApiPaths.candleCoverage}?${new URLSearchParams({ symbol, category, interval })}`,
        { signal },
      ),
    select: (data) => data.spans,
    enabled: symbol !== '',
    staleTime: 5 * 60_000,
  });
}
