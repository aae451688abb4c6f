import type { Order } from '../exchange-port';
import type { PaperOrderRow } from './paper-store';

let idSeq = 0;

/** Venue-side ids (order, transfer): time plus a process sequence. Client order ids come from the caller. */
export function paperId(prefix: string, tsMs: number): string {
  idSeq = (idSeq + 1) % 1_000_000;
  return `${prefix}${tsMs}${String(idSeq).padStart(6, '0')}`;
}

/** The port's view of a stored order (drops the paper-only fields). */
export function publicOrder(row: PaperOrderRow): Order {
  const { userId: _u, leverage: _l, reservedAsset: _a, reserved: _r, ...order } = row;
  return order;
}
