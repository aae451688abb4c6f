import type { DustView } from '@gridbot/shared';

/**
 * Coin the bot left in the account because the exchange refuses orders that small: what stays below the step or
 * the minimum notional, after a stop with sell too (docs/trading-rules.md §2.1, §3), valued at the last price.
 * Shown on the running and the stopped bot's page so the user knows it is theirs and why the bot does not sell it.
 */
export function DustNote({ dust }: { dust: DustView }) {
  return (
    <div role="note" aria-label="Dust" className="rounded-xl border border-line bg-surface-2 p-4 text-sm">
      <p className="font-semibold text-fg">
        Dust left: {dust.qty} {dust.asset} (≈ {dust.value.toFixed(2)} USDT)
      </p>
      <p className="mt-0.5 text-muted">
        A remainder below the exchange's minimum order stays in your account. The bot does not sell it.
      </p>
    </div>
  );
}
