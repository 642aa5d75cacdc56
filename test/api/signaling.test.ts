import { afterEach, describe, expect, it } from 'vitest';
import { createRoom, expectError, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { manualClock, startTestServer } from '../support/server.js';
import { connectSignaling, type SocketClient, sdp } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();
const open: SocketClient[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

async function setup(maxParticipants?: number) {
  const { keys } = await projectWithKeys(t.api);
  const res = await t.api.post('/v1/rooms', {
    token: keys.development,
    body: { name: `r-${Math.random()}`, maxParticipants },
  });
  const room = res.body as { id: string; name: string };
  const join = async (identity: string, rights: Record<string, unknown> = {}) => {
    const { token } = await mintRtcToken(t.api, keys.development, room.id, { identity, ...rights });
    const c = connectSignaling(t.server.url, token);
    open.push(c);
    return c;
  };
  return { keys, room, join };
}

describe('joining', () => {
  it('admits a token holder, lists participants with identity, joined time and rights, and tells the others', async () => {
    const { keys, room, join } = await setup();
    const alice = await join('alice', { name: 'Alice' });
    const joined = await alice.next('joined');
    expect(joined).toMatchObject({
      room: { id: room.id, name: room.name },
      self: { identity: 'alice', name: 'Alice', permissions: { publish: true, subscribe: true } },
      participants: [],
      iceServers: [],
      media: 'mesh',
    });
    const bob = await join('bob', { publish: false });
    expect((await bob.next('joined')).participants.map((p: { identity: string }) => p.identity)).toEqual(['alice']);
    expect((await alice.next('participant_joined')).participant).toMatchObject({
      identity: 'bob',
      permissions: { publish: false },
    });

    const listed = await t.api.get(`/v1/rooms/${room.id}/participants`, { token: keys.development });
    expect(listed.body.data).toEqual([
      {
        identity: 'alice',
        name: 'Alice',
        joinedAt: expect.any(String),
        permissions: expect.objectContaining({ publishVideo: true }),
      },
      {
        identity: 'bob',
        name: null,
        joinedAt: expect.any(String),
        permissions: expect.objectContaining({ publishVideo: false }),
      },
    ]);
    expect((await t.api.get(`/v1/rooms/${room.id}`, { token: keys.development })).body.participantCount).toBe(2);

    bob.close();
    expect(await alice.next('participant_left')).toEqual({ type: 'participant_left', identity: 'bob' });
    await expect
      .poll(
        async () =>
          (await t.api.get(`/v1/rooms/${room.id}/participants`, { token: keys.development })).body.data.length,
      )
      .toBe(1);
  });

  it('refuses a missing or invalid token with a clear close reason', async () => {
    const missing = connectSignaling(t.server.url);
    expect(await missing.closed).toEqual({ code: 4400, reason: 'missing access_token' });
    const invalid = connectSignaling(t.server.url, 'not.a.token');
    expect(await invalid.closed).toEqual({ code: 4401, reason: 'invalid RTC token' });
  });

  it('refuses an expired token', async () => {
    const clock = manualClock();
    const server = await startTestServer({ clock });
    try {
      const api = client(server.url);
      const { keys } = await projectWithKeys(api);
      const room = await createRoom(api, keys.development);
      const { token } = await mintRtcToken(api, keys.development, room.id, { ttlSeconds: 60 });
      clock.advance(61_000);
      expect(await connectSignaling(server.url, token).closed).toEqual({ code: 4401, reason: 'RTC token expired' });
    } finally {
      await server.dispose();
    }
  });

  it('refuses joining a deleted room, and disconnects everyone when the room is deleted', async () => {
    const { keys, room, join } = await setup();
    const { token } = await mintRtcToken(t.api, keys.development, room.id, { identity: 'late' });
    const alice = await join('alice');
    await alice.next('joined');
    const bob = await join('bob');
    await bob.next('joined');

    await t.api.delete(`/v1/rooms/${room.id}`, { token: keys.development });
    expect(await alice.closed).toEqual({ code: 4410, reason: 'the room was deleted' });
    expect(await bob.closed).toEqual({ code: 4410, reason: 'the room was deleted' });

    const late = connectSignaling(t.server.url, token);
    const closed = await late.closed;
    expect(closed.code).toBe(4404);
    expect(closed.reason).toContain(room.id);
  });

  it('replaces an earlier connection of the same identity', async () => {
    const { join } = await setup();
    const first = await join('alice');
    await first.next('joined');
    const second = await join('alice');
    await second.next('joined');
    expect(await first.closed).toEqual({ code: 4409, reason: 'replaced by a new connection with the same identity' });
  });

  it('refuses joins beyond maxParticipants', async () => {
    const { join } = await setup(1);
    await (await join('alice')).next('joined');
    const bob = await join('bob');
    expect((await bob.closed).code).toBe(4429);
  });
});

describe('relaying', () => {
  async function pair(aliceRights = {}, bobRights = {}) {
    const ctx = await setup();
    const alice = await ctx.join('alice', aliceRights);
    await alice.next('joined');
    const bob = await ctx.join('bob', bobRights);
    await bob.next('joined');
    await alice.next('participant_joined');
    return { alice, bob };
  }

  it('relays offers, answers, ICE candidates and data between participants of the room', async () => {
    const { alice, bob } = await pair();
    const offer = sdp(['audio', 'sendrecv'], ['video', 'sendrecv']);
    alice.send({ type: 'offer', to: 'bob', sdp: offer });
    expect(await bob.next('offer')).toEqual({ type: 'offer', from: 'alice', sdp: offer });
    const answer = sdp(['audio', 'sendrecv'], ['video', 'sendrecv']);
    bob.send({ type: 'answer', to: 'alice', sdp: answer });
    expect(await alice.next('answer')).toEqual({ type: 'answer', from: 'bob', sdp: answer });
    const candidate = {
      candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host',
      sdpMid: '0',
      sdpMLineIndex: 0,
    };
    alice.send({ type: 'ice', to: 'bob', candidate });
    expect(await bob.next('ice')).toEqual({ type: 'ice', from: 'alice', candidate });
    bob.send({ type: 'data', payload: { hello: 'everyone' } });
    expect(await alice.next('data')).toEqual({ type: 'data', from: 'bob', payload: { hello: 'everyone' } });
    alice.send({ type: 'data', to: 'bob', payload: 'just you' });
    expect(await bob.next('data')).toEqual({ type: 'data', from: 'alice', payload: 'just you' });
    alice.send({ type: 'offer', to: 'carol', sdp: offer });
    expect(await alice.next('error')).toMatchObject({ code: 'participant_not_found', refused: 'offer' });
  });

  it('refuses media from a participant without publish rights, but lets it receive', async () => {
    const { alice, bob } = await pair({}, { publish: false });
    for (const sections of [[['video', 'sendrecv']], [['audio', 'sendonly']], [['video']]] as const) {
      bob.send({ type: 'offer', to: 'alice', sdp: sdp(...(sections as never as [['video']])) });
      expect(await bob.next('error')).toMatchObject({ code: 'publish_not_allowed', refused: 'offer' });
    }
    bob.send({ type: 'answer', to: 'alice', sdp: sdp(['video', 'sendrecv']) });
    expect(await bob.next('error')).toMatchObject({ code: 'publish_not_allowed', refused: 'answer' });
    // Receiving is fine: a recvonly offer, or an answer that only receives.
    bob.send({ type: 'offer', to: 'alice', sdp: sdp(['video', 'recvonly'], ['audio', 'inactive']) });
    expect((await alice.next('offer')).from).toBe('bob');
    bob.send({ type: 'answer', to: 'alice', sdp: sdp(['video', 'recvonly']) });
    expect((await alice.next('answer')).from).toBe('bob');
    expect(alice.received.filter((m) => m.type === 'offer')).toHaveLength(1);
  });

  it('enforces audio and video rights separately', async () => {
    const { alice, bob } = await pair({ publishVideo: false });
    alice.send({ type: 'offer', to: 'bob', sdp: sdp(['audio', 'sendrecv']) });
    expect((await bob.next('offer')).from).toBe('alice');
    alice.send({ type: 'offer', to: 'bob', sdp: sdp(['audio', 'sendrecv'], ['video', 'sendonly']) });
    expect(await alice.next('error')).toMatchObject({
      code: 'publish_not_allowed',
      message: expect.stringContaining('video'),
    });
  });

  it('refuses data from a participant without publishData, in messages and data-channel offers', async () => {
    const { alice, bob } = await pair({ publishData: false });
    alice.send({ type: 'data', payload: 'hi' });
    expect(await alice.next('error')).toMatchObject({ code: 'publish_data_not_allowed', refused: 'data' });
    alice.send({ type: 'offer', to: 'bob', sdp: sdp(['application']) });
    expect(await alice.next('error')).toMatchObject({ code: 'publish_data_not_allowed', refused: 'offer' });
    expect(bob.received.filter((m) => m.type === 'data' || m.type === 'offer')).toEqual([]);
  });

  it('does not send media to a participant without subscribe', async () => {
    const { alice } = await pair({}, { subscribe: false });
    alice.send({ type: 'offer', to: 'bob', sdp: sdp(['video', 'sendonly']) });
    expect(await alice.next('error')).toMatchObject({ code: 'subscribe_not_allowed' });
  });

  it('answers the SFU’s messages with media_unavailable on a server that relays peer-to-peer media (the default)', async () => {
    const { alice, bob } = await pair();
    alice.send({ type: 'publish', sdp: sdp(['video', 'sendonly']) });
    expect(await alice.next('error')).toMatchObject({ code: 'media_unavailable', refused: 'publish' });
    alice.send({ type: 'subscribe_answer', sdp: sdp(['video', 'recvonly']) });
    expect(await alice.next('error')).toMatchObject({ code: 'media_unavailable', refused: 'subscribe_answer' });
    expect(bob.received.filter((m) => m.type !== 'joined' && m.type !== 'participant_joined')).toEqual([]);
  });

  it('answers malformed messages with an error and keeps the connection', async () => {
    const { alice, bob } = await pair();
    alice.socket.send('not json');
    expect(await alice.next('error')).toMatchObject({ code: 'invalid_message' });
    alice.send({ type: 'offer', to: 'bob' });
    // In the words of an HTTP validation error.
    expect((await alice.next('error')).message).toBe('Invalid message: sdp: required');
    alice.send({ type: 'offer', to: 'bob', sdp: 42 });
    expect((await alice.next('error')).message).toBe('Invalid message: sdp: expected a string, got a number');
    alice.send({ type: 'teleport' });
    expect(await alice.next('error')).toMatchObject({
      code: 'invalid_message',
      message: expect.stringMatching(/^Invalid message: type: expected one of "offer", .*, got "teleport"$/),
    });
    alice.send(['offer']);
    expect((await alice.next('error')).message).toBe('Invalid message: message: expected an object, got an array');
    alice.send({ type: 'ping' });
    expect(await alice.next('pong')).toEqual({ type: 'pong' });
    bob.send({ type: 'data', payload: 1 });
    expect((await alice.next('data')).payload).toBe(1);
  });
});

describe('telemetry', () => {
  it('accepts events with an RTC token and stores them tagged with project, environment, room and identity', async () => {
    const { keys, room } = await setup();
    const { token } = await mintRtcToken(t.api, keys.development, room.id, { identity: 'alice' });
    const res = await t.api.post('/v1/telemetry/events', {
      token,
      body: {
        events: [
          { type: 'connection.quality', at: '2026-11-21T10:00:00.000Z', data: { score: 4 } },
          { type: 'track.muted' },
        ],
      },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 2 });
  });

  it('refuses other credentials and oversize batches', async () => {
    const { keys, room } = await setup();
    const { token } = await mintRtcToken(t.api, keys.development, room.id);
    const one = { events: [{ type: 'x' }] };
    expectError(
      await t.api.post('/v1/telemetry/events', { token: keys.development, body: one }),
      401,
      'SERVICE_UNAUTHENTICATED',
    );
    expectError(await t.api.post('/v1/telemetry/events', { body: one }), 401, 'SERVICE_UNAUTHENTICATED');
    const tooMany = { events: Array.from({ length: 101 }, () => ({ type: 'x' })) };
    expectError(await t.api.post('/v1/telemetry/events', { token, body: tooMany }), 400, 'SERVICE_VALIDATION_FAILED');
    const bigData = { events: [{ type: 'x', data: { blob: 'y'.repeat(5000) } }] };
    expectError(await t.api.post('/v1/telemetry/events', { token, body: bigData }), 400, 'SERVICE_VALIDATION_FAILED');
    expectError(
      await t.api.post('/v1/telemetry/events', { token, body: { events: [] } }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
    expectError(
      await t.api.post('/v1/telemetry/events', { token, body: { events: [{ type: 'x', room: 'other' }] } }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
  });
});
