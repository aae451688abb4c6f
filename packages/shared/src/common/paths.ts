/**
 * A route path with its `:name` parameters filled in, each URI-encoded: the server registers the pattern,
 * the web calls `pathWith(pattern, { name })`, so both ends use the one path (docs/architecture.md §4).
 */
export function pathWith(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(value);
  });
}
