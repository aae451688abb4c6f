import type {
  AdminActionRecord,
  AdminLevelsInput,
  AdminPlanInput,
  AdminUserRecord,
  AdminWithdrawRecord,
  LevelReward,
  PlatformPage,
  SubscriptionPlan,
  WithdrawStatus,
} from '@gridbot/shared';
import { adminApiPaths, pathWith, securityApiPaths } from '@gridbot/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../../lib/api-client';

/** The server's admin lists show 20 rows a page (apps/server/src/modules/admin/admin.service.ts). */
export const ADMIN_PAGE_SIZE = 20;

export interface ContactMessageRecord {
  id: string;
  name: string;
  contactNo: string;
  email: string;
  text: string;
  createdAt: string;
}

const keys = {
  all: ['admin'] as const,
  list: (name: string, page: number, filter = '') => ['admin', name, page, filter] as const,
};

/** GET {path}?page= (main API conventions: plain JSON, errors `{ message }`). */
function usePagedAdminList<T>(name: string, path: string, page: number, params: Record<string, string> = {}) {
  const query = new URLSearchParams({ ...params, page: String(page) });
  return useQuery({
    queryKey: keys.list(name, page, query.toString()),
    queryFn: ({ signal }) => api.get<PlatformPage<T>>(`${path}?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminWithdrawals(page: number, status: WithdrawStatus | 'ALL') {
  return usePagedAdminList<AdminWithdrawRecord>(
    'withdrawals',
    adminApiPaths.withdrawals,
    page,
    status === 'ALL' ? {} : { status },
  );
}
export const useAdminUsers = (page: number) =>
  usePagedAdminList<AdminUserRecord>('users', adminApiPaths.users, page);
export const useAdminMessages = (page: number) =>
  usePagedAdminList<ContactMessageRecord>('messages', adminApiPaths.contactMessages, page);
export const useAdminActions = (page: number) =>
  usePagedAdminList<AdminActionRecord>('actions', adminApiPaths.actions, page);

export function useAdminPlans() {
  return useQuery({
    queryKey: ['admin', 'plans'],
    queryFn: ({ signal }) => api.get<{ plans: SubscriptionPlan[] }>(adminApiPaths.plans, { signal }),
    select: (data) => data.plans,
  });
}

export function useAdminLevels() {
  return useQuery({
    queryKey: ['admin', 'levels'],
    queryFn: ({ signal }) => api.get<{ rewards: LevelReward[] }>(adminApiPaths.levels, { signal }),
    select: (data) => data.rewards,
  });
}

/** Every admin write refreshes all admin data (and the platform screens' lists, which share the rows). */
function useAdminAction<I>(call: (input: I) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.all });
      await queryClient.invalidateQueries({ queryKey: ['platform'] });
    },
  });
}

export const useApproveWithdrawal = () =>
  useAdminAction(({ id, txHash }: { id: string; txHash?: string }) =>
    api.post<{ message: string }>(
      pathWith(adminApiPaths.approveWithdrawal, { id }),
      txHash ? { txHash } : {},
    ),
  );
export const useRejectWithdrawal = () =>
  useAdminAction(({ id, reason }: { id: string; reason?: string }) =>
    api.post<{ message: string }>(pathWith(adminApiPaths.rejectWithdrawal, { id }), reason ? { reason } : {}),
  );
export const useSavePlan = () =>
  useAdminAction(({ id, input }: { id: string | null; input: AdminPlanInput }) =>
    id
      ? apiRequest<{ message: string }>(pathWith(adminApiPaths.plan, { id }), { method: 'PUT', body: input })
      : api.post<{ message: string }>(adminApiPaths.plans, input),
  );
export const useSaveLevels = () =>
  useAdminAction((input: AdminLevelsInput) =>
    apiRequest<{ message: string }>(adminApiPaths.levels, { method: 'PUT', body: input }),
  );

const securityKey = ['admin', 'security'] as const;

/** Whether administrators must use two-factor sign-in (GET/PUT /api/admin/security). */
export function useAdminSecurity() {
  return useQuery({
    queryKey: securityKey,
    queryFn: ({ signal }) =>
      api.get<{ requireAdminTwoFactor: boolean }>(securityApiPaths.adminSettings, { signal }),
  });
}

export function useSetAdminSecurity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (requireAdminTwoFactor: boolean) =>
      apiRequest<{ requireAdminTwoFactor: boolean }>(securityApiPaths.adminSettings, {
        method: 'PUT',
        body: { requireAdminTwoFactor },
      }),
    onSuccess: (data) => client.setQueryData(securityKey, data),
  });
}
