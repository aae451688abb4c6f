/**
 * A venue's loaded markets (instrument rules), loaded at first use and again once they are older than the
 * TTL; a failed load is forgotten so that the next call tries again.
 */
export const MARKETS_TTL_MS = 24 * 60 * 60 * 1000;

export class MarketsCache {
  private loaded: Promise<void> | undefined;
  private loadedAtMs = 0;

  /** `load(reload)`: reload is true once markets were loaded before (ccxt's `loadMarkets(reload)`). */
  constructor(
    private readonly ttlMs: number,
    private readonly load: (reload: boolean) => Promise<unknown>,
    private readonly hasMarkets: () => boolean,
  ) {}

  ensure(): Promise<void> {
    if (this.loaded && Date.now() - this.loadedAtMs > this.ttlMs) this.loaded = undefined;
    const reload = this.hasMarkets();
    if (!this.loaded) this.loadedAtMs = Date.now();
    this.loaded ??= this.load(reload).then(
      () => undefined,
      (error: unknown) => {
        this.loaded = undefined;
        throw error;
      },
    );
    return this.loaded;
  }
}
