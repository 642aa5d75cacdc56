// A backlog of webhook deliveries when its server is killed (SIGKILL), on both stores: every event of an acknowledged
// message arrives once the server is back, the deliveries it had claimed once their lease ends (at least once:
// duplicates are allowed, and counted).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedChild, startChild, waitUntilReady } from '../support/child-process.js';
import {
  createConversation,
  createKey,
  createProject,
  registerUser,
  registerWebhook,
  sendMessage,
} from '../support/factories.js';
import { client } from '../support/http.js';
import { type PostgresServer, postgresMissing, startPostgres } from '../support/postgres.js';
import { eventually } from '../support/wait.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { envelopeOf } from '../support/webhooks.js';

const SCRIPT = join(import.meta.dirname, '../support/killable-server.ts');
const MESSAGES = 200;
const WRITERS = 8;

async function startNode(dataDir: string, databaseUrl?: string): Promise<{ child: StartedChild; url: string }> {
  const args = ['--import', 'tsx', SCRIPT, dataDir, ...(databaseUrl ? [databaseUrl] : [])];
  const child = startChild('killable server', process.execPath, args);
  let url: string | undefined;
  await waitUntilReady(
    child,
    'the killable server',
    async () => {
      url = /listening (http:\/\/\S+)/.exec(child.output())?.[1];
      return url !== undefined;
    },
    60_000,
  );
  return { child, url: url as string };
}

const pgMissing = postgresMissing();
if (pgMissing) console.warn(`Skipping the PostgreSQL case of the webhook backlog test: ${pgMissing}`);

describe('a backlog of webhook deliveries, its server killed', () => {
  let postgres: PostgresServer | undefined;
  beforeAll(async () => {
    if (!pgMissing) postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());

  it.each(['sqlite', 'postgres'] as const)(
    'on %s: every acknowledged message’s event arrives after a restart, at least once',
    async (store) => {
      if (store === 'postgres' && !postgres) {
        console.warn(`Skipped on PostgreSQL: ${pgMissing}`);
        return;
      }
      const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-backlog-'));
      const databaseUrl = postgres && store === 'postgres' ? postgres.url(postgres.createDatabase()) : undefined;
      const receiver = await startReceiver();
      let node = await startNode(dataDir, databaseUrl);
      try {
        // Nothing is answered until the server is dead: the backlog builds, and it holds claims when it dies.
        let open: () => void = () => {};
        const gate = new Promise<void>((resolve) => {
          open = resolve;
        });
        receiver.reply(async () => {
          await gate;
          return { status: 200, body: 'ok' };
        });
        const api = client(node.url);
        const owner = await registerUser(api);
        const project = await createProject(api, owner);
        await registerWebhook(api, project.id, owner, { url: receiver.url, events: ['message.created'] });
        const key = (await createKey(api, project.id, owner, 'development')).key;
        const conversation = await createConversation(api, key);

        const acknowledged: string[] = [];
        let next = 0;
        await Promise.all(
          Array.from({ length: WRITERS }, async () => {
            while (next < MESSAGES) {
              const n = next++;
              acknowledged.push((await sendMessage(api, key, conversation.id, { text: `m${n}`, senderId: 'al' })).id);
            }
          }),
        );
        await receiver.waitForRequests(1, 30_000);
        await node.child.stop('SIGKILL');
        open();

        node = await startNode(dataDir, databaseUrl);
        // The claims of the killed server end with their lease (60 s); the rest goes out at once.
        const received = () => new Set(receiver.requests.map((request) => envelopeOf(request).data.message.id));
        await eventually(
          async () => received(),
          (ids) => acknowledged.every((id) => ids.has(id)),
          120_000,
        );
        const ids = received();
        for (const id of acknowledged) expect(ids).toContain(id);
        // At least once: what the killed server had in flight goes again (and, on a slow machine, attempts that timed
        // out before it died are retried), with the same event id. Counted, not bounded.
        const duplicates = receiver.requests.length - ids.size;
        console.info(`${store}: ${MESSAGES} events delivered after a SIGKILL, ${duplicates} duplicates`);
        for (const request of receiver.requests) {
          expect(acknowledged).toContain(envelopeOf(request).data.message.id);
        }
      } finally {
        await node.child.stop('SIGKILL');
        await receiver.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    200_000,
  );
});
