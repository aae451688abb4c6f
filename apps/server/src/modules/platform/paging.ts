import type { PlatformPage } from '@gridbot/shared';

/** `{records, current, pages}` of a list call (docs/spec/01-core-screens.md §7); `pages` is at least 1. */
export function toPage<T>(records: T[], total: number, page: number, limit: number): PlatformPage<T> {
  return { records, current: page, pages: Math.max(1, Math.ceil(total / limit)), total };
}

export const offsetOf = (page: number, limit: number) => (page - 1) * limit;
