/**
 * A Switchboard server in a process of its own, for a test to kill with SIGKILL (test/db/webhook-backlog.test.ts):
 * `node --import tsx test/support/killable-server.ts <dataDir> [databaseUrl]` prints `listening <url>` once it
 * listens. On PostgreSQL it takes the database alone (no Redis), as a restarted single server does.
 */
import pino from 'pino';
import { startServer } from '../../server/index.js';

const SECRET_KEY = 'the-secret-key-of-the-killable-server-0123456789';
const [dataDir, databaseUrl] = process.argv.slice(2);
if (!dataDir) throw new Error('Usage: killable-server.ts <dataDir> [databaseUrl]');
const server = await startServer({
  dataDir,
  ...(databaseUrl && { databaseUrl, secretKey: SECRET_KEY }),
  port: 0,
  host: '127.0.0.1',
  logger: pino({ level: 'silent' }),
});
console.log(`listening ${server.url}`);
