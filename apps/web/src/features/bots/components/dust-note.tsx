import type { DustView } from '@gridbot/shared';

/**
 * Coin the bot left in the account because the exchange refuses orders that small (docs/trading-rules.md §3).
 * Shown so the user knows it is theirs and why the bot does not sell it.
 */
export function DustNote({ dust }: { dust: DustView }) {
  return (
    <div role="note" aria-label="Dust" className="rounded-xl border border-line bg-surface-2 p-4 text-sm">
      <p className="font-semibold text-fg">
        Dust: {dust.qty} {dust.asset} (≈ {dust.value.toFixed(2)} USDT)
      </p>
      <p className="mt-0.5 text-muted">
        A remainder below the exchange's minimum order stays in your account. The bot does not sell it.
      </p>
    </div>
  );
}
