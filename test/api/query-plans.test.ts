import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import Database from '../../db/sqlite-driver.js';
import { mintChatToken, mintRtcToken, projectWithKeys, type TestUser } from '../support/factories.js';
import { manualClock } from '../support/server.js';
import { connectSignaling } from '../support/socket-client.js';
import { type ExecutedStatement, installStatementRecorder, queryPlan } from '../support/statement-recorder.js';
import { sqliteOnly } from '../support/test-store.js';
import { useTestServer } from '../support/use-test-server.js';

// Before the server starts: its statement cache keeps the statements the recorder hands out.
const recorder = installStatementRecorder();
const clock = manualClock();
const t = useTestServer({ clock });

const CONVERSATIONS = 300;
const MESSAGES_PER_CONVERSATION = 40;
const ATTACHMENTS = 1_000;
const LIVE_STREAMS = 100;
const HOUR = 3_600_000;

/** The tables that grow with use: none may be read whole, nor a page sorted outside an index, by the queries below. */
const GROWING = ['conversations', 'conversation_members', 'messages', 'attachments', 'live_streams'];
const wholeTableRead = new RegExp(`^SCAN (${GROWING.join('|')})\\b|TEMP B-TREE FOR ORDER BY`);

/**
 * Rows written straight into the database file, as a busy environment would have them: conversations
 * with members and messages, completed attachments (and a few abandoned ones), live streams with rooms.
 */
function seed(projectId: string, tag: string): void {
  const db = new Database(join(t.server.dataDir, 'switchboard.db'));
  const at = clock.now() - 2 * HOUR;
  const scope = [projectId, 'development'];
  const pad = (n: number) => String(n).padStart(6, '0');
  const insert = {
    conversation: db.prepare(
      'INSERT INTO conversations (id, project_id, environment, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    member: db.prepare(
      'INSERT INTO conversation_members (conversation_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)',
    ),
    message: db.prepare(
      'INSERT INTO messages (id, project_id, environment, conversation_id, sender_id, text, attachment_ids, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    attachment: db.prepare(
      'INSERT INTO attachments (id, project_id, environment, conversation_id, filename, content_type, size, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    room: db.prepare('INSERT INTO rooms (id, project_id, environment, name, created_at) VALUES (?, ?, ?, ?, ?)'),
    stream: db.prepare(
      'INSERT INTO live_streams (id, project_id, environment, title, status, room_id, conversation_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
  };
  db.transaction(() => {
    for (let c = 0; c < CONVERSATIONS; c++) {
      const conversationId = `conv_0SEED${tag}${pad(c)}`;
      insert.conversation.run(conversationId, ...scope, `seeded-${c}`, at + c, at + c);
      insert.member.run(conversationId, 'alice', 'ADMIN', at);
      insert.member.run(conversationId, `user-${c}`, 'MEMBER', at);
      for (let m = 0; m < MESSAGES_PER_CONVERSATION; m++)
        insert.message.run(`msg_0SEED${tag}${pad(c)}${pad(m)}`, ...scope, conversationId, 'alice', 'hi', '[]', at + m);
    }
    for (let a = 0; a < ATTACHMENTS; a++) {
      const status = a % 100 === 0 ? 'PENDING' : 'COMPLETED';
      insert.attachment.run(
        `att_0SEED${tag}${pad(a)}`,
        ...scope,
        `conv_0SEED${tag}${pad(0)}`,
        'f',
        'text/plain',
        1,
        status,
        at,
      );
    }
    for (let s = 0; s < LIVE_STREAMS; s++) {
      insert.room.run(`room_0SEED${tag}${pad(s)}`, ...scope, `seeded-room-${s}`, at);
      insert.stream.run(
        `ls_0SEED${tag}${pad(s)}`,
        ...scope,
        'Seeded',
        'LIVE',
        `room_0SEED${tag}${pad(s)}`,
        `conv_0SEED${tag}${pad(s)}`,
        at,
      );
    }
  })();
  db.close();
}

/** Each executed statement whose plan reads a growing table whole or sorts in a temporary B-tree, with that plan. */
function wholeTableReads(statements: ExecutedStatement[]) {
  const file = join(t.server.dataDir, 'switchboard.db');
  return statements
    .map((statement) => ({ sql: statement.sql, plan: queryPlan(file, statement) }))
    .filter(({ plan }) => plan.some((line) => wholeTableRead.test(line)));
}

let owner: TestUser;
let projectId: string;
let key: string;
let alice: string;
beforeAll(async () => {
  const ours = await projectWithKeys(t.api);
  ({ owner } = ours);
  projectId = ours.project.id;
  key = ours.keys.development;
  alice = await mintChatToken(t.api, key, 'alice');
  seed(projectId, 'A');
  seed((await projectWithKeys(t.api)).project.id, 'B'); // another project's rows, for the scope to tell apart
}, 60_000);

describe.skipIf(sqliteOnly("query plans (SQLite's EXPLAIN QUERY PLAN)"))(
  'queries that must not read whole tables (EXPLAIN QUERY PLAN of what each request executed)',
  () => {
    it('lists conversations, for a key and for a chat-token user, page after page, from an index', async () => {
      let nextCursor: string | undefined;
      const statements = await recorder.record(async () => {
        for (const token of [key, alice]) {
          const first = await t.api.get('/v1/chat/conversations?limit=50', { token });
          expect(first.body.data).toHaveLength(50);
          nextCursor = first.body.nextCursor;
          const second = await t.api.get(`/v1/chat/conversations?limit=50&cursor=${nextCursor}`, { token });
          expect(second.body.data).toHaveLength(50);
        }
      });
      expect(wholeTableReads(statements)).toEqual([]);
    });

    it('shows the chat overview and the inspection page with a few queries, none reading whole tables', async () => {
      const overview = await recorder.record(async () => {
        const res = await t.api.get(`/v1/projects/${projectId}/chat/overview?environment=development`, {
          token: owner.token,
        });
        expect(res.body).toMatchObject({
          conversations: CONVERSATIONS,
          messages: CONVERSATIONS * MESSAGES_PER_CONVERSATION,
        });
      });
      expect(wholeTableReads(overview)).toEqual([]);

      const inspection = await recorder.record(async () => {
        const res = await t.api.get(`/v1/projects/${projectId}/chat/conversations?environment=development&limit=50`, {
          token: owner.token,
        });
        expect(res.body.data).toHaveLength(50);
        expect(res.body.data[0]).toMatchObject({
          memberCount: 2,
          messageCount: MESSAGES_PER_CONVERSATION,
          lastMessageAt: new Date(clock.now() - 2 * HOUR + MESSAGES_PER_CONVERSATION - 1).toISOString(),
        });
      });
      expect(wholeTableReads(inspection)).toEqual([]);
      // Counted per page, not per row: a page of 50 conversations is not 100 more queries.
      expect(inspection.length).toBeLessThan(15);
    });

    it('sweeps abandoned attachments from an index', async () => {
      const statements = await recorder.record(async () => {
        expect(await t.server.runAttachmentCleanup()).toBe((2 * ATTACHMENTS) / 100); // a server-wide job: both projects
      });
      expect(wholeTableReads(statements)).toEqual([]);
    });

    it('looks up a room’s live stream from an index when a token joins', async () => {
      const room = (await t.api.post('/v1/rooms', { token: key, body: { name: 'plain' } })).body;
      const { token } = await mintRtcToken(t.api, key, room.id);
      const statements = await recorder.record(async () => {
        const socket = connectSignaling(t.server.url, token);
        await socket.next('joined');
        socket.close();
      });
      expect(wholeTableReads(statements)).toEqual([]);
      const lookup = statements.find((s) => /from "live_streams"/.test(s.sql));
      expect(lookup && queryPlan(join(t.server.dataDir, 'switchboard.db'), lookup)).toEqual([
        expect.stringMatching(/^SEARCH live_streams USING INDEX \w+ \(room_id=\?/),
      ]);
    });

    // Last: it empties the environment the tests above read.
    it('saves a snapshot of an environment reading each table from an index', async () => {
      const statements = await recorder.record(async () => {
        const res = await t.api.post(`/v1/projects/${projectId}/environment/snapshots?environment=development`, {
          token: owner.token,
          body: { name: 'plans' },
        });
        expect(res.body.counts).toMatchObject({ messages: CONVERSATIONS * MESSAGES_PER_CONVERSATION });
      });
      expect(wholeTableReads(statements)).toEqual([]);
    });

    it('resets an environment with set-based deletes, each reaching its rows from an index', async () => {
      const statements = await recorder.record(async () => {
        const res = await t.api.post(`/v1/projects/${projectId}/environment/reset?environment=development`, {
          token: owner.token,
        });
        expect(res.body.removed).toMatchObject({ messages: CONVERSATIONS * MESSAGES_PER_CONVERSATION });
      });
      expect(wholeTableReads(statements)).toEqual([]);
      // One statement per table, whatever the number of rows: no loop over them.
      expect(statements.filter((s) => /^delete /i.test(s.sql)).length).toBeLessThan(20);
    });
  },
);
