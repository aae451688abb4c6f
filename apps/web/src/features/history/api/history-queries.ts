import type { HistoryRow } from '@gridbot/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type HistoryTab = 'multigrid' | 'scalping' | 'cycle';

const paths = { multigrid: '/api/bothistory', scalping: '/api/scalpbothistory' } as const;

/** Stopped bots, newest first (spec 01 §7). The Cycle tab has no list yet: cycles come with issue 7. */
export function useBotHistory(tab: HistoryTab) {
  return useQuery({
    queryKey: ['history', tab],
    queryFn: ({ signal }) =>
      tab === 'cycle'
        ? Promise.resolve({ rows: [] as HistoryRow[] })
        : api.get<{ rows: HistoryRow[] }>(paths[tab], { signal }),
    select: (data) => data.rows,
  });
}
