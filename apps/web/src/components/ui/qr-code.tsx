import { clsx } from 'clsx';
import { useMemo } from 'react';
import { encode } from 'uqr';

interface QrCodeProps {
  value: string;
  /** Accessible name, e.g. 'QR code of your deposit address'. */
  label: string;
  className?: string;
}

/**
 * A QR code drawn as one SVG path, bundled (no remote image service). Always dark modules on white with a
 * quiet zone: scanners need that contrast in either theme.
 */
export function QrCode({ value, label, className }: QrCodeProps) {
  const { size, path } = useMemo(() => {
    const qr = encode(value, { ecc: 'M', border: 2 });
    const parts: string[] = [];
    qr.data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
      });
    });
    return { size: qr.size, path: parts.join('') };
  }, [value]);

  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className={clsx('rounded-lg bg-white', className)}
    >
      <title>{label}</title>
      <path d={path} fill="#0f172a" />
    </svg>
  );
}
