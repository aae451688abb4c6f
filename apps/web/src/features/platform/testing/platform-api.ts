import type { PlatformPage, SessionUser } from '@gridbot/shared';
import { json, mockApi, type RecordedCall, testUser } from '../../../testing/mock-api';

export const DEPOSIT_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** A signed-in user with a funded platform wallet (docs/spec/02-bots-wallet-account.md §3 user data). */
export const platformUser: SessionUser = {
  ...testUser,
  usdtToken: '150',
  ifcToken: '20',
  ifxToken: '0',
  usdtRewardToken: '42.5',
  availableCredit: '300',
  isActiveSubscription: true,
  userCode: 'ALICE1',
  qrCode: { value: DEPOSIT_ADDRESS, base64: '' },
};

/** A success envelope (docs/architecture.md §4). */
export function ok(data: unknown, msg = 'success') {
  return json({ code: '0000', data, msg });
}

/** A failure envelope: any code other than '0000' carries msg and error. */
export function fail(msg: string, code = '4000', status = 200) {
  return json({ code, msg, error: msg, data: null }, status);
}

export function page<T>(records: T[], current = 1, pages = 1): PlatformPage<T> {
  return { records, current, pages, total: records.length };
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

/** The platform API with empty lists, the user above, and `overrides` on top. */
export function platformApi(user: SessionUser = platformUser, overrides: Record<string, Handler> = {}) {
  return mockApi({
    'GET /api/me': () => json({ user }),
    'POST /platform/subscription/plans': () => ok({ plans: [] }),
    'POST /platform/subscription/list': () => ok(page([])),
    'POST /platform/wallet/deposit/list': () => ok(page([])),
    'POST /platform/wallet/deposit/options': () => ok({ chain: true, simulated: false }),
    'POST /platform/withdraw/list': () => ok(page([])),
    'POST /platform/level-income/level-reward': () => ok({ rewards: [] }),
    'POST /platform/level-income/list': () => ok(page([])),
    ...overrides,
  });
}
