// The start-up floor (bench/startup.ts): Express 5 and better-sqlite3 in WAL mode with one table and one route,
// started as `node bench/bare-stack.mjs <dataDir> <port>`. Plain JavaScript, so that no loader is measured.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import express from 'express';

// better-sqlite3 as the server loads it (db/sqlite-driver.ts): 12 on Node.js 20, which cannot load 13.
const Database = createRequire(import.meta.url)(
  Number(process.versions.napi) >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20',
);

const [dataDir, port] = process.argv.slice(2);
const db = new Database(join(dataDir, 'bare.db'));
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, value TEXT)');
const count = db.prepare('SELECT count(*) AS n FROM items');
const app = express();
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok', items: count.get().n });
});
app.listen(Number(port), '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
