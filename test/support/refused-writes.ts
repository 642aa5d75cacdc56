import { type ServerData, withTestDatabase } from './test-database.js';

/**
 * Runs `during` while every `operation` on `table` of the server's database fails, as a constraint the write breaks
 * would (the API answers 409 SERVICE_CONFLICT): a trigger, made from another connection and dropped afterwards (on
 * SQLite, one that RAISEs ABORT; on PostgreSQL, one whose function raises a check violation). How a test makes one
 * write of a request fail where the API offers no way to, to see that the request's other writes go with it.
 */
export async function whileRefusing<T>(
  server: ServerData,
  operation: 'INSERT' | 'UPDATE' | 'DELETE',
  table: string,
  during: () => Promise<T>,
): Promise<T> {
  return withTestDatabase(server, async (sabotage) => {
    const trigger = `refuse_${operation.toLowerCase()}_${table}`;
    const postgres = sabotage.dialect === 'postgres';
    if (postgres) {
      await sabotage.run(
        `CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
          `RAISE EXCEPTION 'disk on fire' USING ERRCODE = 'check_violation'; END $$`,
      );
      await sabotage.run(
        `CREATE TRIGGER ${trigger} BEFORE ${operation} ON "${table}" FOR EACH ROW EXECUTE FUNCTION ${trigger}()`,
      );
    } else {
      await sabotage.run(
        `CREATE TRIGGER ${trigger} BEFORE ${operation} ON "${table}" BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`,
      );
    }
    try {
      return await during();
    } finally {
      await sabotage.run(
        postgres ? `DROP TRIGGER IF EXISTS ${trigger} ON "${table}"` : `DROP TRIGGER IF EXISTS ${trigger}`,
      );
      if (postgres) await sabotage.run(`DROP FUNCTION IF EXISTS ${trigger}()`);
    }
  });
}
