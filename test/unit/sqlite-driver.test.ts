import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import Database, { SQLITE_DRIVER } from '../../db/sqlite-driver.js';

const require = createRequire(import.meta.url);
const versionOf = (name: string) => (require(`${name}/package.json`) as { version: string }).version;

describe('the SQLite driver', () => {
  it('is better-sqlite3 13 (Node-API) wherever Node-API 10 is, and 12 only on Node.js 20', () => {
    // 12's addon derives from node::ObjectWrap, which aborts Node.js 24.19 and later when a statement is collected.
    const major = Number(versionOf(SQLITE_DRIVER).split('.')[0]);
    if (Number(process.versions.napi) >= 10) expect(major).toBe(13);
    else expect([process.versions.node.split('.')[0], major]).toEqual(['20', 12]);
    expect(Number(versionOf('better-sqlite3').split('.')[0])).toBe(13);
  });

  it('opens a database, prepares, binds and reads rows', () => {
    const sqlite = new Database(':memory:');
    try {
      sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
      sqlite.prepare('INSERT INTO t (name) VALUES (?)').run('a');
      expect(sqlite.prepare('SELECT id, name FROM t').all()).toEqual([{ id: 1, name: 'a' }]);
      expect(sqlite.pragma('journal_mode', { simple: true })).toBe('memory');
    } finally {
      sqlite.close();
    }
  });
});
