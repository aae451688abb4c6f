// What other modules may use of this one; they import nothing else from it (docs/architecture.md §2).
export { gridRoutes } from './grid.routes';
