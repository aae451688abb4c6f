/**
 * UTC calendar dates from Unix milliseconds without `Date` (the engine has no clock, docs/contributing.md §3).
 * Days-to-civil conversion after Howard Hinnant's `civil_from_days` (proleptic Gregorian).
 */
const MS_PER_DAY = 86_400_000;

function civilFromDays(days: number): [year: number, month: number, day: number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** `YYYY-MM-DD` of the UTC day containing `timeMs` (the datewiseprofit key). */
export function utcDateKey(timeMs: number): string {
  const [y, m, d] = civilFromDays(Math.floor(timeMs / MS_PER_DAY));
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** ISO-8601 UTC timestamp `YYYY-MM-DDTHH:MM:SS.sssZ`, like `Date.prototype.toISOString`. */
export function utcIso(timeMs: number): string {
  const msOfDay = ((timeMs % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY;
  const h = Math.floor(msOfDay / 3_600_000);
  const mi = Math.floor((msOfDay % 3_600_000) / 60_000);
  const s = Math.floor((msOfDay % 60_000) / 1000);
  return `${utcDateKey(timeMs)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(msOfDay % 1000, 3)}Z`;
}

export { MS_PER_DAY };
