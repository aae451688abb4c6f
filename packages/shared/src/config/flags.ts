/** Parses a build or runtime flag: on only when it equals 'true' (spec 01 §6); unset keeps the default. */
export function parseFlag(value: string | undefined, defaultValue: boolean): boolean {
  if (value === undefined || value === '') return defaultValue;
  return value.trim().toLowerCase() === 'true';
}
