import { type CommittedFunds, type HeldUsdt, heldUsdtParts, type PositionView } from '@gridbot/shared';
import { usePositions } from '../api/positions';
import {
  useCommittedFunds,
  useFuturesBalance,
  useSpotBalance,
  useWalletSummary,
} from '../api/wallet-queries';
import { formatUsdt } from '../lib/amounts';

/** What holds each wallet's USDT beyond the transferable figure, in the words a refused transfer uses. */
function heldParts(committed: CommittedFunds | undefined, positions: readonly PositionView[]) {
  const reserves = (category: 'Spot' | 'Future'): HeldUsdt[] =>
    (committed?.bots ?? [])
      .filter((b) => b.category === category)
      .map((b) => ({ kind: 'bot', name: b.name, usdt: b.usdt }));
  const margins = positions.map((p): HeldUsdt => ({ kind: 'position', symbol: p.symbol, usdt: p.margin }));
  const words = (v: string) => formatUsdt(v) ?? v;
  return {
    spot: heldUsdtParts(reserves('Spot'), words),
    futures: heldUsdtParts([...reserves('Future'), ...margins], words),
  };
}

/** What the Internal Transfers dialog shows: each wallet's transferable USDT and what holds the rest. */
export function useTransferFigures() {
  const spotBalance = useSpotBalance();
  const futuresBalance = useFuturesBalance();
  const summary = useWalletSummary();
  // The transferable spot figure is availableBalance of /api/pichart (docs/spec/02-bots-wallet-account.md §7); spotBalance stands in.
  // Both leave out what running bots hold.
  // Null only without keys, when the cards are not shown.
  const spotTransferable = summary.data?.availableBalance ?? spotBalance.data?.spotusdtAmount ?? undefined;
  const futuresTransferable = futuresBalance.data?.futuresusdtAmount ?? undefined;
  const committed = useCommittedFunds();
  const positions = usePositions();
  const held = heldParts(committed.data, positions.data?.positions ?? []);
  return { spotTransferable, futuresTransferable, held };
}
