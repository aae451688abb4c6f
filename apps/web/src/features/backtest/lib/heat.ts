/** The largest |PnL| of a sweep's results (1 when none ran): the heatmap's full colour. */
export function maxAbs(results: readonly { pnl: number | null }[]): number {
  return results.reduce((m, r) => (r.pnl == null ? m : Math.max(m, Math.abs(r.pnl))), 0) || 1;
}

/** Green for profit, red for loss, stronger the larger it is against the largest of the map. */
export function heat(pnl: number | null, scale: number): string {
  if (pnl === null) return 'var(--surface-2)';
  const strength = Math.round(15 + 55 * Math.min(1, Math.abs(pnl) / scale));
  return `color-mix(in srgb, var(${pnl >= 0 ? '--up' : '--down'}) ${strength}%, transparent)`;
}
