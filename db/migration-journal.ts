import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A migration of a migrations folder, as its journal (drizzle-kit's meta/_journal.json) lists it. */
export interface JournalEntry {
  tag: string;
  /** drizzle's `created_at` of the migration, which orders them. */
  when: number;
}

/**
 * When the newest migration in `migrationsFolder` (this build's) was made (drizzle's `created_at` of it). A database
 * whose newest applied migration is later was written by a newer Switchboard.
 */
export function latestKnownMigration(migrationsFolder: string): JournalEntry {
  return knownMigrations(migrationsFolder).reduce((latest, entry) => (entry.when > latest.when ? entry : latest));
}

/** The migrations in `migrationsFolder`, as its journal lists them. */
export function knownMigrations(migrationsFolder: string): JournalEntry[] {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}
