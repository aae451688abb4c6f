// What other modules may use of this one; they import nothing else from it (docs/architecture.md §2).
export { binanceHistory } from './binance-history';
export { marketRoutes } from './market.routes';
