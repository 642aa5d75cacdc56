import { text } from 'drizzle-orm/sqlite-core';
import { ENVIRONMENTS } from './environment.js';
import { projects } from './projects.js';

/**
 * The two columns every environment-scoped table carries. Queries of such tables filter on both
 * at once through `inScope()` (db/scope.ts). Rows that predate environments are development's.
 */
export const environmentScoped = () => ({
  projectId: text('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  environment: text('environment', { enum: ENVIRONMENTS }).notNull().default('development'),
});
