import { afterEach, describe, expect, it } from 'vitest';
import {
  type Connection,
  ConsoleClient,
  type LiveEventStream,
  type ServerClient,
  SwitchboardError,
} from '../../sdk/index.js';
import { watchEvents } from '../support/live-events.js';
import { signedInClient } from '../support/sdk.js';
import { serverClient } from '../support/sdk-keys.js';
import { startTestServer } from '../support/server.js';
import { connectRealtime, connectSignaling, type SocketClient } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';
import { startReceiver } from '../support/webhook-receiver.js';

const t = useTestServer();
const sockets: SocketClient[] = [];
const streams: LiveEventStream[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
  for (const stream of streams.splice(0)) stream.close();
});

/** A new room of the key's environment, joined over the signaling socket by `identity`. */
async function joinNewRoom(server: ServerClient, identity: string) {
  const room = await server.rooms.create({ name: `room-${identity}` });
  const signaling = connectSignaling(t.server.url, (await server.rooms.rtcTokens.create(room.id, { identity })).token);
  sockets.push(signaling);
  await signaling.next('joined');
  return { room, signaling };
}

async function openEvents(client: ConsoleClient, projectId: string, environment?: 'development' | 'staging') {
  const stream = await client.observability.events(projectId, { environment });
  streams.push(stream);
  return watchEvents(stream);
}

describe('ConsoleClient: observability reads', () => {
  it('lists and gets connections and errors, and reads metrics, diagnostics and usage', async () => {
    const { console: client, projectId, server } = await serverClient(t.server.url, 'staging');
    const { room } = await joinNewRoom(server, 'alice');
    const failed = await server.rooms.get('room_missing').catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(SwitchboardError);

    const staging = { environment: 'staging' } as const;
    const page = await client.observability.connections(projectId, { ...staging, kind: 'signaling' });
    expect(page.data).toEqual([
      expect.objectContaining({ kind: 'signaling', identity: 'alice', roomId: room.id, disconnectedAt: null }),
    ]);
    expect(await client.observability.connection(projectId, page.data[0].id, staging)).toEqual(page.data[0]);
    expect((await client.observability.connections(projectId)).data).toEqual([]);
    const all: Connection[] = [];
    for await (const c of client.observability.allConnections(projectId, { ...staging, limit: 1 })) all.push(c);
    expect(all.map((c) => c.id)).toEqual([page.data[0].id]);

    const errors = await client.observability.errors(projectId, staging);
    expect(errors.data).toEqual([
      expect.objectContaining({
        status: 404,
        code: 'SERVICE_ROOM_NOT_FOUND',
        route: '/v1/rooms/{id}',
        requestId: (failed as SwitchboardError).requestId,
      }),
    ]);
    expect((await client.observability.error(projectId, errors.data[0].id, staging)).code).toBe(
      'SERVICE_ROOM_NOT_FOUND',
    );
    const everyError = [];
    for await (const e of client.observability.allErrors(projectId, staging)) everyError.push(e.id);
    expect(everyError).toEqual([errors.data[0].id]);
    await expect(client.observability.error(projectId, errors.data[0].id)).rejects.toMatchObject({
      status: 404,
      code: 'SERVICE_ERROR_NOT_FOUND',
    });

    const metrics = await client.observability.metrics(projectId, { ...staging, window: '15m' });
    expect(metrics).toMatchObject({ environment: 'staging', window: '15m', resolution: '1m' });
    expect(metrics.series.errors).toHaveLength(15);
    expect(metrics.series.errors.reduce((sum, p) => sum + p.value, 0)).toBe(1);
    const diagnostics = await client.observability.diagnostics(projectId, staging);
    expect(diagnostics).toMatchObject({ environment: 'staging', mode: 'local', connections: { signaling: 1 } });
    const usage = await client.observability.usage(projectId, { ...staging, month: '2025-01' });
    expect(usage).toMatchObject({ environment: 'staging', period: { month: '2025-01' }, messages: 0 });
    await expect(client.observability.metrics(projectId, { window: '2d' })).rejects.toMatchObject({
      status: 400,
      code: 'SERVICE_VALIDATION_FAILED',
    });
  });
});

describe('ConsoleClient: the live event stream', () => {
  it('shows a chat message as metadata, never its text', async () => {
    const { console: client, projectId, server } = await serverClient(t.server.url);
    const watched = await openEvents(client, projectId);
    const conv = await server.conversations.create({ name: 'ops', createdBy: 'alice' });
    const message = await server.messages.send(conv.id, { text: 'the launch code is 0000', senderId: 'alice' });

    const created = await watched.waitFor('message.created');
    expect(created).toMatchObject({
      environment: 'development',
      at: expect.stringMatching(/Z$/),
      data: { message: { id: message.id, roomId: conv.id, senderId: 'alice' } },
    });
    expect(await watched.waitFor('conversation.created')).toMatchObject({ data: { conversation: { id: conv.id } } });
    expect(JSON.stringify(watched.events)).not.toContain('launch code');
  });

  it('shows realtime and signaling connections opening and closing', async () => {
    const { console: client, projectId, server } = await serverClient(t.server.url);
    const watched = await openEvents(client, projectId);
    const realtime = connectRealtime(t.server.url, (await server.chatTokens.create({ userId: 'bob' })).token);
    sockets.push(realtime);
    const { connectionId } = await realtime.next('connected');
    expect(await watched.waitFor('connection.opened', (e) => e.data.connection.id === connectionId)).toMatchObject({
      data: { connection: { kind: 'realtime', identity: 'bob', roomId: null } },
    });
    realtime.close();
    expect(await watched.waitFor('connection.closed', (e) => e.data.connection.id === connectionId)).toMatchObject({
      data: { connection: { kind: 'realtime', identity: 'bob', closeCode: expect.any(Number) } },
    });

    const { room, signaling } = await joinNewRoom(server, 'carol');
    const opened = await watched.waitFor('connection.opened', (e) => e.data.connection.kind === 'signaling');
    expect(opened.data.connection).toMatchObject({ identity: 'carol', roomId: room.id });
    expect(await watched.waitFor('participant.joined')).toMatchObject({ data: { participant: { identity: 'carol' } } });
    signaling.send({ type: 'leave' });
    await watched.waitFor('connection.closed', (e) => e.data.connection.id === opened.data.connection.id);
  });

  it('shows a 4xx of a runtime route as request.failed, naming its error record', async () => {
    const { console: client, projectId, server } = await serverClient(t.server.url);
    const watched = await openEvents(client, projectId);
    const failed = (await server.rooms.get('room_nope').catch((err: unknown) => err)) as SwitchboardError;
    const event = await watched.waitFor('request.failed');
    expect(event.data.error).toMatchObject({
      id: expect.stringMatching(/^err_/),
      requestId: failed.requestId,
      status: 404,
      code: 'SERVICE_ROOM_NOT_FOUND',
      method: 'GET',
      route: '/v1/rooms/{id}',
      credential: 'key',
    });
    expect((await client.observability.error(projectId, event.data.error.id)).requestId).toBe(failed.requestId);
  });

  it('shows webhook delivery attempts', async () => {
    const receiver = await startReceiver();
    try {
      const { console: client, projectId, server } = await serverClient(t.server.url);
      const endpoint = await client.webhooks.register(projectId, { url: receiver.url, environment: 'development' });
      const watched = await openEvents(client, projectId);
      await server.rooms.create({ name: 'hooked' });
      const attempted = await watched.waitFor('delivery.attempted');
      expect(attempted.data.delivery).toMatchObject({
        id: expect.stringMatching(/^whd_/),
        webhookId: endpoint.id,
        eventType: 'room.created',
        attempt: 1,
        status: 'SUCCEEDED',
        statusCode: 200,
        error: null,
      });
    } finally {
      await receiver.close();
    }
  });

  it('carries only its own environment’s events', async () => {
    const { console: client, projectId } = await serverClient(t.server.url);
    const watched = await openEvents(client, projectId, 'staging');
    // The development room is made first: were it to leak, it would arrive before the staging one.
    await client.rooms.create(projectId, { name: 'dev-room' }, { environment: 'development' });
    await client.rooms.create(projectId, { name: 'stg-room' }, { environment: 'staging' });
    await watched.waitFor('room.created');
    expect(watched.events.map((e) => [e.type, e.environment, JSON.stringify(e.data)])).toEqual([
      ['room.created', 'staging', expect.stringContaining('stg-room')],
    ]);
  });

  it('answers 404 to a non-member and 403 to a role without project:read, before any stream opens', async () => {
    const { console: owner, projectId } = await serverClient(t.server.url);
    const stranger = await signedInClient(t.server.url);
    await expect(stranger.observability.events(projectId)).rejects.toMatchObject({
      status: 404,
      code: 'SERVICE_PROJECT_NOT_FOUND',
    });
    const billing = await signedInClient(t.server.url);
    const { user } = await billing.auth.whoami();
    await owner.members.add(projectId, { email: user.email, role: 'BILLING' });
    await expect(billing.observability.events(projectId)).rejects.toMatchObject({
      status: 403,
      code: 'SERVICE_PERMISSION_DENIED',
    });
    await expect(new ConsoleClient({ baseUrl: t.server.url }).observability.events(projectId)).rejects.toMatchObject({
      status: 401,
    });
  });

  it('ends the loop without an error when aborted or closed', async () => {
    const { console: client, projectId } = await serverClient(t.server.url);
    const abort = new AbortController();
    const aborted = watchEvents(await client.observability.events(projectId, { signal: abort.signal }));
    const closing = await client.observability.events(projectId);
    const closed = watchEvents(closing);
    abort.abort();
    closing.close();
    expect(await aborted.ended).toBeUndefined();
    expect(await closed.ended).toBeUndefined();
    const already = new AbortController();
    already.abort();
    await expect(client.observability.events(projectId, { signal: already.signal })).rejects.toMatchObject({
      code: 'CLIENT_NETWORK_ERROR',
    });
  });

  it('ends when the server closes, without holding close() up', async () => {
    const server = await startTestServer();
    try {
      const client = await signedInClient(server.url);
      const { id } = await client.projects.create({ name: 'Closing' });
      const watched = watchEvents(await client.observability.events(id));
      const started = performance.now();
      await server.close();
      // close() cuts lingering sockets after 2 s: a stream must not have waited for that.
      expect(performance.now() - started).toBeLessThan(1500);
      expect(await watched.ended).toBeUndefined();
    } finally {
      await server.dispose();
    }
  });
});

describe('ConsoleClient: the live event stream over a connection that drops', () => {
  it('throws CLIENT_NETWORK_ERROR from the loop', async () => {
    const { projectId, console: owner } = await serverClient(t.server.url);
    let cut: (() => void) | undefined;
    // A fetch whose stream the test breaks, as a network failure would.
    const breakable: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!res.body) return res;
      const reader = res.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          cut = () => controller.error(new TypeError('terminated'));
        },
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const client = new ConsoleClient({ baseUrl: t.server.url, token: owner.token, fetch: breakable });
    const stream = await client.observability.events(projectId);
    streams.push(stream);
    const watched = watchEvents(stream);
    cut?.();
    expect(await watched.ended).toMatchObject({ code: 'CLIENT_NETWORK_ERROR', status: 0 });
  });
});
