import {
  type MultigridStrategyInput,
  strategyMessages as m,
  type SaveStrategyResponse,
  type ScalpingStrategyInput,
  STRATEGY_NAME_MAX,
  type StoredStrategy,
  type StrategyDetailResponse,
  type StrategyKind,
  type StrategyListResponse,
  strategyToStored,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import type { StrategyRow } from './strategies.repo';
import * as repo from './strategies.repo';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type StrategyInput = MultigridStrategyInput | ScalpingStrategyInput;

/** A row in the listed format of docs/spec/01-core-screens.md §3 (plus `type`, `system` and timestamps). */
export function toStoredStrategy(row: StrategyRow): StoredStrategy {
  return {
    ...row.params,
    _id: row.id,
    strategy_name: row.name,
    No_of_order: row.noOfGrids,
    status: row.status,
    system: row.userId === null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  } as StoredStrategy;
}

const duplicate = () => new HttpError(409, m.duplicateName);
const notFound = () => new HttpError(404, m.notFound);

/**
 * Saves a new own strategy. Names are unique per user and kind ignoring case, and may not repeat a system
 * strategy's name either, so a name picked in Start Bot always means one strategy.
 */
export async function createStrategy(
  deps: Deps,
  userId: string,
  input: StrategyInput,
): Promise<SaveStrategyResponse> {
  const taken = await repo.takenNames(deps.db, userId, input.kind);
  if (taken.has(input.strategyName.toLowerCase())) throw duplicate();
  try {
    const row = await repo.insertStrategy(deps.db, userId, {
      kind: input.kind,
      name: input.strategyName,
      params: strategyToStored(input),
    });
    return { success: true, message: m.saved, strategy: toStoredStrategy(row) };
  } catch (error) {
    if (repo.isUniqueViolation(error)) throw duplicate();
    throw error;
  }
}

/** The user's own strategy, else the system one of that name; another user's answers 404 like a missing one. */
async function findVisible(deps: Deps, userId: string, kind: StrategyKind, name: string) {
  return (
    (await repo.findOwnStrategy(deps.db, userId, kind, name)) ??
    (await repo.findSystemStrategy(deps.db, kind, name))
  );
}

/** An own strategy to change: 404 when invisible, 403 for a system one (read-only). */
async function findOwnForChange(deps: Deps, userId: string, kind: StrategyKind, name: string) {
  const own = await repo.findOwnStrategy(deps.db, userId, kind, name);
  if (own) return own;
  if (await repo.findSystemStrategy(deps.db, kind, name)) throw new HttpError(403, m.systemReadOnly);
  throw notFound();
}

export async function getStrategy(
  deps: Deps,
  userId: string,
  kind: StrategyKind,
  name: string,
): Promise<StrategyDetailResponse> {
  const row = await findVisible(deps, userId, kind, name);
  if (!row) throw notFound();
  return { strategy: toStoredStrategy(row), inUse: await repo.isStrategyInUse(deps.db, userId, row) };
}

/**
 * Replaces an own strategy's table. Running bots keep the snapshot they started with, so the edit only
 * reaches bots started afterwards; `inUse` tells the page to say so.
 */
export async function editStrategy(
  deps: Deps,
  userId: string,
  input: StrategyInput,
): Promise<SaveStrategyResponse> {
  const row = await findOwnForChange(deps, userId, input.kind, input.strategyName);
  if (row.noOfGrids !== input.noOfGrids) throw new HttpError(400, m.gridCountFixed);
  const updated = await repo.updateStrategyParams(
    deps.db,
    userId,
    row.id,
    strategyToStored(input),
    deps.clock.now(),
  );
  if (!updated) throw notFound();
  return {
    success: true,
    message: m.updated,
    strategy: toStoredStrategy(updated),
    inUse: await repo.isStrategyInUse(deps.db, userId, updated),
  };
}

export async function deleteStrategy(deps: Deps, userId: string, kind: StrategyKind, name: string) {
  const row = await findOwnForChange(deps, userId, kind, name);
  const outcome = await repo.deleteStrategyUnlessInUse(deps.db, userId, row);
  if (outcome === 'in-use') throw new HttpError(409, m.inUse);
  return { success: true, message: m.deleted };
}

export async function listStrategies(
  deps: Deps,
  userId: string | null,
  kind: StrategyKind,
): Promise<StrategyListResponse> {
  const rows =
    userId === null
      ? await repo.listSystemStrategies(deps.db, kind)
      : await repo.listOwnStrategies(deps.db, userId, kind);
  return { strategies: rows.map(toStoredStrategy) };
}

/** Grid count of an own or system strategy (Start Bot's minimum amount); Multigrid first when no kind. */
export async function noOfGrid(deps: Deps, userId: string, name: string, kind?: StrategyKind) {
  const kinds: StrategyKind[] = kind ? [kind] : ['multigrid', 'scalping'];
  for (const k of kinds) {
    const row = await findVisible(deps, userId, k, name);
    if (row) return { noOfGrid: row.noOfGrids, strategyName: row.name, kind: row.kind };
  }
  throw notFound();
}

/** A free name for a copy: the requested one, or "<name> (copy)", "<name> (copy 2)"… cut to fit 40. */
function copyName(base: string, taken: Set<string>): string {
  for (let n = 1; n < 1000; n += 1) {
    const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
    const name = `${base.slice(0, STRATEGY_NAME_MAX - suffix.length).trimEnd()}${suffix}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
  throw duplicate();
}

/** Copies a system strategy into the user's own strategies, where it can be edited. */
export async function copySystemStrategy(
  deps: Deps,
  userId: string,
  kind: StrategyKind,
  name: string,
  newName?: string,
): Promise<SaveStrategyResponse> {
  const source = await repo.findSystemStrategy(deps.db, kind, name);
  if (!source) throw notFound();
  const taken = await repo.takenNames(deps.db, userId, kind);
  if (newName !== undefined && taken.has(newName.toLowerCase())) throw duplicate();
  const target = newName ?? copyName(source.name, taken);
  try {
    const row = await repo.insertStrategy(deps.db, userId, { kind, name: target, params: source.params });
    return { success: true, message: m.copied, strategy: toStoredStrategy(row) };
  } catch (error) {
    if (repo.isUniqueViolation(error)) throw duplicate();
    throw error;
  }
}
