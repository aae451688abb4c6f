import Bowser from 'bowser';

/** "Chrome 131 on macOS" from a User-Agent; "Unknown device" when there is none to read. */
export function deviceOf(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = [parsed.browser.name, major].filter(Boolean).join(' ');
  const os = parsed.os.name ?? '';
  if (!browser && !os) return 'Unknown device';
  return os ? `${browser || 'Browser'} on ${os}` : browser;
}
