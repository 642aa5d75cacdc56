import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ChatClient, RESET_COUNT_LABELS, resetCounts, type WebSocketConstructor } from '../../sdk/index.js';
import { watchEvents } from '../support/live-events.js';
import { serverClient } from '../support/sdk-keys.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

describe('ConsoleClient.environments.reset, as a test suite uses it between runs', () => {
  it('empties staging; a ChatClient is disconnected with 4205 and reconnects to it empty; watchers hear of it', async () => {
    const { console, projectId, server } = await serverClient(t.server.url, 'staging');
    // A first "test run": a conversation with a message, and a chat user connected.
    const conversation = await server.conversations.create({ name: 'run-1', members: [{ userId: 'alice' }] });
    await server.messages.send(conversation.id, { senderId: 'alice', text: 'from run 1' });
    const { token } = await server.chatTokens.create({ userId: 'alice' });
    const chat = new ChatClient({
      baseUrl: t.server.url,
      token,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    });
    expect((await chat.connect()).conversationIds).toEqual([conversation.id]);
    const disconnected = new Promise((resolve) => chat.on('disconnected', resolve));
    const reconnected = new Promise<{ conversationIds: string[] }>((resolve) =>
      chat.on('connected', (event) => event.reconnected && resolve(event)),
    );
    const stream = await console.observability.events(projectId, { environment: 'staging' });
    const watching = watchEvents(stream);

    const reset = await console.environments.reset(projectId, { environment: 'staging' });
    expect(reset).toMatchObject({ environment: 'staging', removed: { conversations: 1, messages: 1 } });

    // The next run starts clean: the client is back, in an environment with nothing of run 1.
    expect(await disconnected).toEqual({ code: 4205, reason: 'environment reset' });
    expect((await reconnected).conversationIds).toEqual([]);
    expect((await server.conversations.list()).data).toEqual([]);
    const event = await watching.waitFor('environment.reset');
    expect(event).toMatchObject({ environment: 'staging', data: { removed: reset.removed } });
    chat.close();
    stream.close();

    // Production is never reset; the environment is required by the types.
    await expect(console.environments.reset(projectId, { environment: 'production' })).rejects.toMatchObject({
      status: 403,
      code: 'SERVICE_PRODUCTION_ENVIRONMENT',
    });
    // @ts-expect-error: no default environment for a reset.
    await console.environments.reset(projectId, {}).catch(() => undefined);
  });

  it('names every count of the answer, in its order', async () => {
    const { console, projectId } = await serverClient(t.server.url);
    const reset = await console.environments.reset(projectId, { environment: 'development' });
    expect(Object.keys(RESET_COUNT_LABELS)).toEqual(Object.keys(reset.removed));
    expect(resetCounts(reset.removed).every(([label, count]) => label.length > 0 && count === 0)).toBe(true);
  });
});
