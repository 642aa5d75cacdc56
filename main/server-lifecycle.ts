import { join } from 'node:path';
import { app } from 'electron';
import pino, { type Logger } from 'pino';
import type { ServeSettings } from '../cli/config.js';
// start-server.js, not index.js: the index also exports the seed schemas, which would load zod before the server
// listens (see test/unit/start-up-imports.test.ts).
import { type RunningServer, startServer } from '../server/start-server.js';

/**
 * The server's log: the terminal when run from source, a file in the OS log folder when packaged
 * (a packaged GUI app has no terminal, and on Windows no usable stdout at all).
 */
function serverLogger(): Logger {
  if (!app.isPackaged) return pino({ level: 'info' });
  return pino({ level: 'info' }, pino.destination({ dest: join(app.getPath('logs'), 'server.log'), mkdir: true }));
}

/** Starts the embedded server in this process and stops it before the app quits. */
export async function startEmbeddedServer(settings: ServeSettings): Promise<RunningServer> {
  const server = await startServer({ ...settings, logger: serverLogger() });
  closeBeforeQuit(server);
  return server;
}

/**
 * Quitting waits for `server.close()`: the first `before-quit` is cancelled, the server closes
 * (in-flight requests get their grace period, the database is closed cleanly), then quit resumes.
 */
function closeBeforeQuit(server: RunningServer): void {
  let state: 'running' | 'closing' | 'closed' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    server
      .close()
      .catch((err: unknown) => console.error('Switchboard: the server did not close cleanly', err))
      .finally(() => {
        state = 'closed';
        app.quit();
      });
  });
  // Ctrl-C in the terminal that started the app quits it the same way.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());
}
