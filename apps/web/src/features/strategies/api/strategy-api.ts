import type {
  MultigridStrategyPayload,
  SaveStrategyResponse,
  ScalpingStrategyPayload,
  StrategyDetailResponse,
  StrategyKind,
  StrategyListResponse,
} from '@gridbot/shared';
import { strategyApiPaths, strategyKindApiPaths } from '@gridbot/shared';
import { api } from '../../../lib/api-client';

/** The screens of each kind (docs/spec/01-core-screens.md §2); the API paths are `strategyKindApiPaths` in shared. */
export const strategyPaths = {
  multigrid: { createScreen: '/botcreate', editScreen: '/editstrategy' },
  scalping: { createScreen: '/createscalpingstrategy', editScreen: '/scalpeditstrategy' },
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

export const getOwnStrategies = (kind: StrategyKind, signal?: AbortSignal) =>
  api.get<StrategyListResponse>(strategyKindApiPaths[kind].list, { signal });

export const getSystemStrategies = (kind: StrategyKind, signal?: AbortSignal) =>
  api.get<StrategyListResponse>(strategyKindApiPaths[kind].system, { signal });

export const getStrategy = (kind: StrategyKind, name: string, signal?: AbortSignal) =>
  api.post<StrategyDetailResponse>(strategyKindApiPaths[kind].byName, { strategy_name: name }, { signal });

export const createStrategy = (kind: StrategyKind, payload: StrategyPayload) =>
  api.post<SaveStrategyResponse>(strategyKindApiPaths[kind].create, payload);

export const editStrategy = (kind: StrategyKind, payload: StrategyPayload) =>
  api.post<SaveStrategyResponse>(strategyKindApiPaths[kind].edit, { dataToSend: payload });

export const deleteStrategy = (kind: StrategyKind, name: string) =>
  api.post<{ success: boolean; message: string }>(strategyKindApiPaths[kind].remove, { strategy_name: name });

export const copySystemStrategy = (kind: StrategyKind, name: string) =>
  api.post<SaveStrategyResponse>(strategyApiPaths.copySystem, { kind, strategy_name: name });
