import type { StrategyParams } from '@gridbot/shared';
import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A Multigrid or Scalping strategy. `user_id` null marks a read-only system strategy (seeded by migration).
 * `params` holds the docs/spec/01-core-screens.md §3 stored format (allotments as fractions summing to 1, buy lists one shorter
 * than the grids), which the engine's parseStrategy reads as is. Names are unique per owner and kind ignoring
 * case; system names are unique per kind among themselves.
 */
export const strategies = pgTable(
  'strategies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['multigrid', 'scalping'] }).notNull(),
    name: text('name').notNull(),
    noOfGrids: integer('no_of_grids').notNull(),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    params: jsonb('params').$type<StrategyParams>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('strategies_user_kind_name_key').on(t.userId, t.kind, sql`lower(${t.name})`),
    uniqueIndex('strategies_system_kind_name_key')
      .on(t.kind, sql`lower(${t.name})`)
      .where(sql`${t.userId} IS NULL`),
    check(
      'strategies_grid_count_check',
      sql`${t.noOfGrids} >= 1 AND ${t.noOfGrids} <= CASE WHEN ${t.kind} = 'scalping' THEN 10 ELSE 50 END`,
    ),
  ],
);
