import { clsx } from 'clsx';

const HUES = [210, 150, 35, 280, 0, 190, 95, 320, 55, 250];

/** A coloured disc with the asset's initial: tells rows apart at a glance without loading coin logos. */
export function AssetAvatar({ asset, className }: { asset: string; className?: string }) {
  const hue = HUES[[...asset].reduce((sum, char) => sum + char.charCodeAt(0), 0) % HUES.length];
  return (
    <span
      aria-hidden="true"
      style={{ backgroundColor: `hsl(${hue} 70% 50% / 0.16)`, color: `hsl(${hue} 75% 45%)` }}
      className={clsx(
        'inline-flex size-8 shrink-0 items-center justify-center rounded-full font-bold dark:brightness-125',
        asset.length > 3 ? 'text-[0.5625rem]' : 'text-[0.6875rem]',
        className,
      )}
    >
      {asset.slice(0, 4)}
    </span>
  );
}
