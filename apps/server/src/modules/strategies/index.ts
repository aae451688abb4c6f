// What other modules may use of this one; they import nothing else from it (docs/architecture.md §2).
export {
  findOwnStrategy,
  findSystemStrategy,
  insertStrategy,
  isUniqueViolation,
  takenNames,
} from './strategies.repo';
export { strategyRoutes } from './strategies.routes';
