/** A refusal as Binance sends it: HTTP status, code and message. */
export class BinanceReject extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly msg: string,
  ) {
    super(`${code} ${msg}`);
  }
}
