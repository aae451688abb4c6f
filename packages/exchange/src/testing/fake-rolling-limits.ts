/**
 * Request counts in rolling windows, as the Bybit and OKX doubles keep them: a request is refused when the window
 * of `windowMs` ending now already holds `limit` requests of its key; a refused request is not counted.
 */
export class RollingLimits {
  private readonly hits = new Map<string, number[]>();
  /** The most requests one key held in one window, per key (what a test checks the budgets against). */
  readonly peaks = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Counts a request of `key` if it fits; says how many remain, or when the oldest one leaves the window. */
  hit(key: string, limit: number, windowMs: number): { ok: boolean; remaining: number; resetAtMs: number } {
    const now = this.now();
    const kept = (this.hits.get(key) ?? []).filter((at) => at > now - windowMs);
    this.hits.set(key, kept);
    if (kept.length >= limit) return { ok: false, remaining: 0, resetAtMs: (kept[0] as number) + windowMs };
    kept.push(now);
    this.peaks.set(key, Math.max(this.peaks.get(key) ?? 0, kept.length));
    return { ok: true, remaining: limit - kept.length, resetAtMs: now };
  }
}
