// The start-up floor (bench/startup.ts): Express 5 and better-sqlite3 in WAL mode with one table and one route,
// started as `node bench/bare-stack.mjs <dataDir> <port>`. Plain JavaScript, so that no loader is measured.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import express from 'express';

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
