import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Runs `during` while every `operation` on `table` of the server's database fails, as a constraint the write breaks
 * would (the API answers 409 SERVICE_CONFLICT): a trigger, made from another connection to the file and dropped
 * afterwards. How a test makes one write of a request fail where the API offers no way to, to see that the
 * request's other writes go with it.
 */
export async function whileRefusing<T>(
  dataDir: string,
  operation: 'INSERT' | 'UPDATE' | 'DELETE',
  table: string,
  during: () => Promise<T>,
): Promise<T> {
  const sabotage = new Database(join(dataDir, 'switchboard.db'));
  const trigger = `refuse_${operation.toLowerCase()}_${table}`;
  try {
    sabotage.exec(
      `CREATE TRIGGER ${trigger} BEFORE ${operation} ON ${table} BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`,
    );
    return await during();
  } finally {
    sabotage.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
    sabotage.close();
  }
}
