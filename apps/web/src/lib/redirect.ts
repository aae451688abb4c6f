/**
 * The `redirect` query value if it is a same-site path, else null. Only a single leading '/' is accepted:
 * '//evil.example' and '/\evil.example' are protocol-relative in browsers and would leave the site.
 */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value?.startsWith('/')) return null;
  if (value.startsWith('//') || value.startsWith('/\\')) return null;
  // Control characters and whitespace can smuggle a second slash past the check above.
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x21 || code === 0x7f) return null;
  }
  return value;
}

/** '/?redirect=/running-bot/5' — slashes stay readable, everything else is encoded. */
export function loginPathFor(path: string): string {
  if (!path || path === '/') return '/';
  return `/?redirect=${encodeURIComponent(path).replaceAll('%2F', '/')}`;
}

/** Path, query and hash of the current page. */
export function currentPath(): string {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}
