/**
 * The root key of every query of what the exchange account holds: balances, assets, positions, open orders
 * (the wallet feature's queries). Bots change them (a fill, a stop that sells or closes), so the push channel
 * and the bot actions mark them stale by this root, without knowing the wallet feature.
 */
export const accountQueryRoot = ['wallet'] as const;
