import type {
  MultigridStrategyPayload,
  ScalpingStrategyPayload,
  StoredStrategy,
  StrategyDetailResponse,
  StrategyKind,
  StrategyListResponse,
} from '@gridbot/shared';
import { api } from '../../../lib/api-client';

/** The spec's paths per kind (docs/spec/01-core-screens.md §7), with the screens that belong to them (docs/spec/01-core-screens.md §2). */
export const strategyPaths = {
  multigrid: {
    create: '/api/strategy',
    list: '/api/mystratagieslist',
    system: '/api/systemstrategy',
    byName: '/api/stratagybypara',
    edit: '/api/stratagyedit',
    remove: '/api/deletestrategy',
    createScreen: '/botcreate',
    editScreen: '/editstrategy',
  },
  scalping: {
    create: '/api/strategyscalp',
    list: '/api/scalpmystratagieslist',
    system: '/api/systemstrategyscalping',
    byName: '/api/scalpstratagybypara',
    edit: '/api/scalpstratagyedit',
    remove: '/api/scalpdeletestrategy',
    createScreen: '/createscalpingstrategy',
    editScreen: '/scalpeditstrategy',
  },
} as const satisfies Record<StrategyKind, Record<string, string>>;

/** The edit screen of a strategy: its name goes into the path, encoded. */
export function editScreenPath(kind: StrategyKind, name: string): string {
  return `${strategyPaths[kind].editScreen}/${encodeURIComponent(name)}`;
}

/** My Strategies on the tab of this kind. */
export function myStrategiesPath(kind: StrategyKind): string {
  return kind === 'scalping' ? '/mystrategies?tab=scalping' : '/mystrategies';
}

export type StrategyPayload = MultigridStrategyPayload | ScalpingStrategyPayload;

export interface SaveStrategyResponse {
  success: boolean;
  message: string;
  strategy: StoredStrategy;
  inUse?: boolean;
}

export const getOwnStrategies = (kind: StrategyKind, signal?: AbortSignal) =>
  api.get<StrategyListResponse>(strategyPaths[kind].list, { signal });

export const getSystemStrategies = (kind: StrategyKind, signal?: AbortSignal) =>
  api.get<StrategyListResponse>(strategyPaths[kind].system, { signal });

export const getStrategy = (kind: StrategyKind, name: string, signal?: AbortSignal) =>
  api.post<StrategyDetailResponse>(strategyPaths[kind].byName, { strategy_name: name }, { signal });

export const createStrategy = (kind: StrategyKind, payload: StrategyPayload) =>
  api.post<SaveStrategyResponse>(strategyPaths[kind].create, payload);

export const editStrategy = (kind: StrategyKind, payload: StrategyPayload) =>
  api.post<SaveStrategyResponse>(strategyPaths[kind].edit, { dataToSend: payload });

export const deleteStrategy = (kind: StrategyKind, name: string) =>
  api.post<{ success: boolean; message: string }>(strategyPaths[kind].remove, { strategy_name: name });

export const copySystemStrategy = (kind: StrategyKind, name: string) =>
  api.post<SaveStrategyResponse>('/api/copystrategy', { kind, strategy_name: name });
