import { describe, expect, it } from 'vitest';
import Database from '../../db/sqlite-driver.js';
import { cacheStatements } from '../../db/statement-cache.js';

describe('statement cache', () => {
  const open = (size?: number) => {
    const sqlite = new Database(':memory:');
    sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b');");
    cacheStatements(sqlite, size);
    return sqlite;
  };

  it('hands out the same compiled statement for the same SQL, with its modes reset', () => {
    const sqlite = open();
    const first = sqlite.prepare('SELECT id, name FROM t WHERE id = ?');
    expect(first.raw().get(1)).toEqual([1, 'a']);
    const again = sqlite.prepare('SELECT id, name FROM t WHERE id = ?');
    expect(again).toBe(first);
    expect(again.get(2)).toEqual({ id: 2, name: 'b' });
    expect(sqlite.prepare('SELECT name FROM t WHERE id = ?').pluck().get(1)).toBe('a');
    expect(sqlite.prepare('SELECT name FROM t WHERE id = ?').get(1)).toEqual({ name: 'a' });
  });

  it('reuses writing statements too, and forgets the least recently used past its size', () => {
    const sqlite = open(2);
    const insert = sqlite.prepare('INSERT INTO t (name) VALUES (?)');
    insert.run('c');
    expect(sqlite.prepare('INSERT INTO t (name) VALUES (?)')).toBe(insert);
    sqlite.prepare('INSERT INTO t (name) VALUES (?)').run('d');
    expect(sqlite.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 4 });
    const count = sqlite.prepare('SELECT count(*) AS n FROM t');
    sqlite.prepare('SELECT 1');
    // Two kept: `SELECT 1` and the count; the insert was used least recently.
    expect(sqlite.prepare('SELECT count(*) AS n FROM t')).toBe(count);
    expect(sqlite.prepare('INSERT INTO t (name) VALUES (?)')).not.toBe(insert);
  });
});
