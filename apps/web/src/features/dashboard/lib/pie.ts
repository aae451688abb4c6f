import type { PieSlice } from '@gridbot/shared';

/** docs/spec/01-core-screens.md §9: at most 8 slices plus 'Others'; a list of 9 colours. */
export const PIE_COLORS = [
  '#3b82f6',
  '#22c55e',
  '#f7931a',
  '#a855f7',
  '#ef4444',
  '#14b8a6',
  '#eab308',
  '#ec4899',
  '#64748b',
] as const;
export const MAX_SLICES = 8;
export const NOT_ACTIVE: PieSlice = { label: 'Not Active', value: 100 };

/** Both bot kinds in one pie: the largest 8 slices, the rest summed as 'Others', 'Not Active' 100 when empty. */
export function pieSlices(...lists: (PieSlice[] | undefined)[]): PieSlice[] {
  const slices = lists
    .flatMap((list) => list ?? [])
    .map((s) => ({ label: s.label, value: Number(s.value) }))
    .filter((s) => s.label !== NOT_ACTIVE.label && Number.isFinite(s.value) && s.value > 0)
    .sort((a, b) => b.value - a.value);
  if (slices.length === 0) return [NOT_ACTIVE];
  if (slices.length <= MAX_SLICES) return slices;
  const others = slices.slice(MAX_SLICES).reduce((sum, s) => sum + s.value, 0);
  return [...slices.slice(0, MAX_SLICES), { label: 'Others', value: others }];
}

/** Running bots behind the pie: one chart row per bot (the slices group them into 8 plus Others). */
export function countBots(...lists: (PieSlice[] | undefined)[]): number {
  return lists.flatMap((list) => list ?? []).filter((s) => s.label !== NOT_ACTIVE.label).length;
}
