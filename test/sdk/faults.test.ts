import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ChatClient, type ChatEvent, FAULT_KINDS, type WebSocketConstructor } from '../../sdk/index.js';
import { watchEvents } from '../support/live-events.js';
import { serverClient } from '../support/sdk-keys.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

describe('ConsoleClient.faults, as a test suite checks its app’s resilience', () => {
  it('adds, lists, removes and clears faults; dashboards watching hear of each change', async () => {
    const { console, projectId, server } = await serverClient(t.server.url, 'staging');
    const stream = await console.observability.events(projectId, { environment: 'staging' });
    const watching = watchEvents(stream);

    const unavailable = await console.faults.add(projectId, {
      environment: 'staging',
      kind: 'api.unavailable',
      percent: 100,
      expiresInSeconds: 60,
    });
    expect(unavailable).toMatchObject({ environment: 'staging', kind: 'api.unavailable', percent: 100, delayMs: null });
    const added = await watching.waitFor('environment.faults_changed');
    expect(added).toMatchObject({ environment: 'staging', data: { change: 'added', faults: [unavailable] } });

    // The app's server, with the staging key, now sees 503s with Retry-After.
    await expect(server.rooms.list()).rejects.toMatchObject({ status: 503, code: 'SERVICE_FAULT_INJECTED' });

    const delay = await console.faults.add(projectId, { environment: 'staging', kind: 'webhook.delay', delayMs: 2000 });
    expect((await console.faults.list(projectId, { environment: 'staging' })).data).toEqual([delay, unavailable]);
    await console.faults.remove(projectId, unavailable.id, { environment: 'staging' });
    expect((await server.rooms.list()).data).toEqual([]);
    expect(await console.faults.clear(projectId, { environment: 'staging' })).toEqual({ removed: 1 });
    expect((await console.faults.list(projectId, { environment: 'staging' })).data).toEqual([]);
    await watching.waitFor('environment.faults_changed', (e) => e.data.change === 'removed');
    stream.close();

    await expect(
      console.faults.add(projectId, { environment: 'production', kind: 'webhook.duplicate' }),
    ).rejects.toMatchObject({ status: 403, code: 'SERVICE_PRODUCTION_ENVIRONMENT' });
    expect(FAULT_KINDS).toContain(unavailable.kind);
  });

  it('a ChatClient dropped by an injected fault (4206) reconnects and catches up on what was posted meanwhile', async () => {
    const { console, projectId, server } = await serverClient(t.server.url, 'staging');
    const conversation = await server.conversations.create({ name: 'resilience', members: [{ userId: 'alice' }] });
    const { token } = await server.chatTokens.create({ userId: 'alice' });
    const chat = new ChatClient({
      baseUrl: t.server.url,
      token,
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      // Long enough for the message below to be posted while the client is away.
      reconnect: { initialDelayMs: 600, maxDelayMs: 600 },
    });
    await chat.connect();
    const messages: ChatEvent<'message.created'>[] = [];
    chat.on('message.created', (event) => messages.push(event));
    const disconnected = new Promise<{ code: number; reason: string }>((resolve) => chat.on('disconnected', resolve));
    const reconnected = new Promise((resolve) => chat.on('connected', (event) => event.reconnected && resolve(event)));

    expect(await console.faults.dropSockets(projectId, { environment: 'staging', kind: 'realtime' })).toEqual({
      closed: 1,
    });
    expect(await disconnected).toEqual({ code: 4206, reason: 'fault injected' });
    const sent = await server.messages.send(conversation.id, { senderId: 'bob', text: 'while you were away' });
    await reconnected;
    await expect.poll(() => messages.map((m) => [m.data.message.id, m.caughtUp])).toEqual([[sent.id, true]]);
    chat.close();
  });
});
