// The chat app's test, as its authors would write it: a Switchboard server from `switchboard/testing` (resolved
// through the package's exports map, as in any project that installed it), seeded inline.
import { startTestServer, type TestServer } from 'switchboard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp } from './chat-app.js';

const seed = {
  user: { email: 'dev@example.com', password: 'development only' },
  projects: [
    {
      name: 'Chat app',
      conversations: [
        { environment: 'development', name: 'general', members: [{ userId: 'alice' }, { userId: 'bob' }] },
      ],
    },
  ],
} as const;

let switchboard: TestServer<'Chat app'>;
beforeAll(async () => {
  switchboard = await startTestServer({ seed });
});
afterAll(() => switchboard.close());

const app = () => createChatApp({ switchboardUrl: switchboard.url, apiKey: switchboard.keys['Chat app'].development });

describe('the chat app', () => {
  it("delivers alice's message to bob over the realtime socket", async () => {
    const bob = await switchboard.clients.chat('bob');
    const received = new Promise((resolve) => bob.on('message.created', resolve));
    const general = switchboard.seed.projects['Chat app'].conversations[0];
    await app().say(general.id, 'alice', 'hello bob');
    expect(await received).toMatchObject({
      conversationId: general.id,
      data: { message: { senderId: 'alice', text: 'hello bob' } },
    });
  });
});

describe('a conversation the app starts', () => {
  it('reaches both users, each seeing the other type', async () => {
    // A server of this test's own, closed at the end of the block.
    await using own = await startTestServer({ seed });
    const chatApp = createChatApp({ switchboardUrl: own.url, apiKey: own.keys['Chat app'].development });
    const conversationId = await chatApp.startConversation('alice and carol', ['alice', 'carol']);
    const carol = await own.clients.chat('carol');
    const typing = new Promise((resolve) => carol.on('typing.started', resolve));
    const alice = await own.clients.chat('alice');
    alice.typing(conversationId);
    expect(await typing).toMatchObject({ conversationId, data: { userId: 'alice' } });
  });
});
