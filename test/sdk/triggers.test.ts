import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ChatClient, type ChatEvent, type TriggeredEvent, type WebSocketConstructor } from '../../sdk/index.js';
import { EVENT_TYPES } from '../../server/webhooks/catalogue.js';
import { serverClient } from '../support/sdk-keys.js';
import { useTestServer } from '../support/use-test-server.js';
import { eventually } from '../support/wait.js';

const t = useTestServer();

describe('ConsoleClient.environments.trigger, as an app’s test suite uses it', () => {
  it('triggers message.created: a ChatClient of trigger-bob receives the real message', async () => {
    const { console, projectId, server } = await serverClient(t.server.url, 'staging');
    const { token } = await server.chatTokens.create({ userId: 'trigger-bob' });
    const bob = new ChatClient({
      baseUrl: t.server.url,
      token,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
    });
    await bob.connect();
    const received: ChatEvent<'message.created'>[] = [];
    bob.on('message.created', (e) => received.push(e));

    const triggered: TriggeredEvent = await console.environments.trigger(projectId, {
      environment: 'staging',
      event: 'message.created',
    });
    const { conversation, message } = triggered.objects;
    if (!conversation || !message) throw new Error(`no conversation or message: ${JSON.stringify(triggered)}`);
    await eventually(
      async () => received,
      (r) => r.length === 1,
    );
    expect(received[0]).toMatchObject({
      conversationId: conversation.id,
      data: { message: { id: message.id, senderId: 'trigger-alice' } },
    });
    // The conversation is the app's to read like any other.
    expect((await server.messages.list(conversation.id)).data.map((m) => m.id)).toEqual([message.id]);
    bob.close();

    await expect(
      console.environments.trigger(projectId, { environment: 'production', event: 'room.created' }),
    ).rejects.toMatchObject({ status: 403, code: 'SERVICE_PRODUCTION_ENVIRONMENT' });
    // @ts-expect-error: the event is a catalogue type.
    await console.environments.trigger(projectId, { environment: 'staging', event: 'message.sent' }).catch(() => null);
  });

  it('lists what can be triggered', async () => {
    const { console, projectId } = await serverClient(t.server.url);
    const triggers = await console.environments.triggers(projectId);
    expect(triggers.map((trigger) => trigger.event)).toEqual(EVENT_TYPES);
    expect(triggers.every((trigger) => trigger.events.includes(trigger.event))).toBe(true);
  });
});
