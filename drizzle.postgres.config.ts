import { defineConfig } from 'drizzle-kit';

// PostgreSQL's migrations, from the tables made out of the description (db/schema/postgres.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/postgres.ts',
  out: './db/postgres-migrations',
});
