export {
  type CreateDbOptions,
  connectionsOf,
  createDb,
  type Db,
  type DbHandle,
  type Schema,
  type Tx,
} from './create-db';
export * from './schema';
export { createTestDb } from './testing/create-test-db';
