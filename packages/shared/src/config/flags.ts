/** Parses a build or runtime flag: on only when it equals 'true' (docs/spec/01-core-screens.md §6); unset keeps the default. */
export function parseFlag(value: string | undefined, defaultValue: boolean): boolean {
  if (value === undefined || value === '') return defaultValue;
  return value.trim().toLowerCase() === 'true';
}
