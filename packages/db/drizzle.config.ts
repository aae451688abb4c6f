import { defineConfig } from 'drizzle-kit';

// Migrations are generated from src/schema and applied at start-up by migrate() in create-db.ts,
// on PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/index.ts',
  out: './migrations',
});
