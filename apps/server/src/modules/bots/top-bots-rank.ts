/**
 * The order of Copy BOTs, decided once per UTC hour. A bot's ROI moves with every price, so ranking it live
 * swapped cards between two refreshes (and under the pointer); the order is taken from the ROIs at the first read
 * of the hour and kept until the hour ends, while each card's figures stay live.
 */
const HOUR_MS = 3_600_000;

interface Ranking {
  hour: number;
  /** Bot ids, best first. */
  order: string[];
}

export class HourlyRanking {
  private readonly rankings = new Map<string, Ranking>();

  /**
   * The ids in this hour's order for `key` (a viewer and filter): computed by `rank` at the hour's first read;
   * later reads keep that order, dropping bots that no longer qualify and adding the ones that qualify after it
   * (at the end, in their own ranked order), so no card moves up under the pointer.
   */
  order(key: string, nowMs: number, rank: () => string[], qualifying: ReadonlySet<string>): string[] {
    const hour = Math.floor(nowMs / HOUR_MS);
    let ranking = this.rankings.get(key);
    if (!ranking || ranking.hour !== hour) {
      for (const [k, r] of this.rankings) if (r.hour !== hour) this.rankings.delete(k);
      ranking = { hour, order: rank() };
      this.rankings.set(key, ranking);
    }
    const known = new Set(ranking.order);
    if ([...qualifying].some((id) => !known.has(id)))
      ranking.order.push(...rank().filter((id) => !known.has(id)));
    return ranking.order.filter((id) => qualifying.has(id));
  }
}
