import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogueEvent, createEventBus } from '../../server/index.js';
import {
  addMember,
  createLiveStream,
  expectError,
  jwtClaims,
  projectWithKeys,
  registerUser,
} from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { whileRefusing } from '../support/refused-writes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { connectSignaling, sdp } from '../support/socket-client.js';

const events = createEventBus();
const seen: CatalogueEvent[] = [];
events.on('catalogue', (e) => seen.push(e));
let server: TestServer;
let api: Client;
beforeAll(async () => {
  server = await startTestServer({ events });
  api = client(server.url);
});
afterAll(() => server.dispose());

async function stream(env: 'development' | 'staging' | 'production' = 'development') {
  const ctx = await projectWithKeys(api);
  const key = ctx.keys[env];
  return { ...ctx, key, stream: await createLiveStream(api, key) };
}

/** How the signaling socket answers a token: the close it got, or `joined` (the socket is then closed). */
async function admission(token: string): Promise<{ code: number; reason: string } | 'joined'> {
  const socket = connectSignaling(server.url, token);
  const outcome = await Promise.race([socket.next('joined').then(() => 'joined' as const), socket.closed]);
  socket.close();
  return outcome;
}

describe('live streams with an API key', () => {
  it('wraps one new room and one new conversation of the key’s environment', async () => {
    const { keys, stream: s } = await stream('staging');
    expect(s).toMatchObject({
      id: expect.stringMatching(/^ls_/),
      status: 'CREATED',
      environment: 'staging',
      startedAt: null,
    });
    expect((await api.get(`/v1/rooms/${s.roomId}`, { token: keys.staging })).status).toBe(200);
    expect((await api.get(`/v1/chat/conversations/${s.conversationId}`, { token: keys.staging })).status).toBe(200);
    for (const other of [keys.development, keys.production]) {
      expectError(await api.get(`/v1/live-streams/${s.id}`, { token: other }), 404, 'SERVICE_LIVE_STREAM_NOT_FOUND');
      expectError(
        await api.post(`/v1/live-streams/${s.id}/viewer-tokens`, { token: other, body: { identity: 'v' } }),
        404,
        'SERVICE_LIVE_STREAM_NOT_FOUND',
      );
      expectError(
        await api.post(`/v1/live-streams/${s.id}/start`, { token: other }),
        404,
        'SERVICE_LIVE_STREAM_NOT_FOUND',
      );
      expectError(await api.get(`/v1/rooms/${s.roomId}`, { token: other }), 404, 'SERVICE_ROOM_NOT_FOUND');
    }
    expect(
      (await api.get('/v1/live-streams', { token: keys.staging })).body.data.map((x: { id: string }) => x.id),
    ).toEqual([s.id]);
    expect((await api.get('/v1/live-streams', { token: keys.development })).body.data).toEqual([]);
  });

  it('creates the stream, its room and its conversation together or not at all', async () => {
    const key = (await projectWithKeys(api)).keys.development;
    // A failure at the last write of the creation (the stream row).
    seen.length = 0;
    const res = await whileRefusing(server, 'INSERT', 'live_streams', () =>
      api.post('/v1/live-streams', { token: key, body: { title: 'Doomed' } }),
    );
    expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
    expect((await api.get('/v1/rooms', { token: key })).body.data).toEqual([]);
    expect((await api.get('/v1/chat/conversations', { token: key })).body.data).toEqual([]);
    expect(seen.map((e) => e.type)).toEqual([]); // no room.created or conversation.created for what is not there
    expect((await api.post('/v1/live-streams', { token: key, body: { title: 'Fine' } })).status).toBe(201);
  });

  it('moves CREATED → LIVE → ENDED, refusing wrong moves with 409 and new credentials once ended', async () => {
    const { key, stream: s } = await stream();
    const started = await api.post(`/v1/live-streams/${s.id}/start`, { token: key });
    expect(started.body).toMatchObject({ status: 'LIVE', startedAt: expect.any(String) });
    expectError(await api.post(`/v1/live-streams/${s.id}/start`, { token: key }), 409, 'SERVICE_LIVE_STREAM_STATE');
    expect((await api.post(`/v1/live-streams/${s.id}/end`, { token: key })).body).toMatchObject({
      status: 'ENDED',
      endedAt: expect.any(String),
    });
    const again = await api.post(`/v1/live-streams/${s.id}/end`, { token: key });
    expectError(again, 409, 'SERVICE_LIVE_STREAM_STATE');
    expect(again.body.message).toContain('ENDED');
    expectError(
      await api.post(`/v1/live-streams/${s.id}/viewer-tokens`, { token: key, body: { identity: 'late' } }),
      409,
      'SERVICE_LIVE_STREAM_STATE',
    );
    expectError(
      await api.post(`/v1/live-streams/${s.id}/hosts`, { token: key, body: { identity: 'h', role: 'HOST' } }),
      409,
      'SERVICE_LIVE_STREAM_STATE',
    );
    expect((await api.patch(`/v1/live-streams/${s.id}`, { token: key, body: { title: 'Renamed' } })).body.title).toBe(
      'Renamed',
    );
  });

  it('issues host credentials: full publish rights, chat scope ADMIN for HOST and MODERATOR for CO_HOST, and membership', async () => {
    const { key, stream: s } = await stream();
    const host = await api.post(`/v1/live-streams/${s.id}/hosts`, {
      token: key,
      body: { identity: 'ana', role: 'HOST' },
    });
    expect(host.status).toBe(201);
    expect(host.body).toMatchObject({
      identity: 'ana',
      role: 'HOST',
      roomId: s.roomId,
      conversationId: s.conversationId,
    });
    expect(jwtClaims(host.body.rtc.token)).toMatchObject({
      room: s.roomId,
      identity: 'ana',
      publish: true,
      publishAudio: true,
      publishVideo: true,
      publishData: true,
    });
    expect(jwtClaims(host.body.chat.token)).toMatchObject({ senderId: 'ana', scope: 'ADMIN' });
    const cohost = await api.post(`/v1/live-streams/${s.id}/hosts`, {
      token: key,
      body: { identity: 'ben', role: 'CO_HOST', invitedBy: 'ana' },
    });
    expect(jwtClaims(cohost.body.chat.token)).toMatchObject({ senderId: 'ben', scope: 'MODERATOR' });
    const members = await api.get(`/v1/chat/conversations/${s.conversationId}/members`, { token: key });
    expect(members.body.data.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      ['ana', 'ADMIN'],
      ['ben', 'MODERATOR'],
    ]);
    // A host's chat token can post in the stream's conversation.
    const posted = await api.post(`/v1/chat/conversations/${s.conversationId}/messages`, {
      token: host.body.chat.token,
      body: { text: 'we are live' },
    });
    expect(posted.body.senderId).toBe('ana');
  });

  it('lets only a HOST invite or remove hosts when the acting host is named', async () => {
    const { key, stream: s } = await stream();
    const hosts = `/v1/live-streams/${s.id}/hosts`;
    await api.post(hosts, { token: key, body: { identity: 'ana', role: 'HOST' } });
    await api.post(hosts, { token: key, body: { identity: 'ben', role: 'CO_HOST', invitedBy: 'ana' } });
    expectError(
      await api.post(hosts, { token: key, body: { identity: 'cy', role: 'CO_HOST', invitedBy: 'ben' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expectError(
      await api.post(hosts, { token: key, body: { identity: 'cy', role: 'HOST', invitedBy: 'stranger' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expectError(await api.delete(`${hosts}/ana?removedBy=ben`, { token: key }), 403, 'SERVICE_PERMISSION_DENIED');
    expect((await api.delete(`${hosts}/ben?removedBy=ana`, { token: key })).status).toBe(204);
    expectError(await api.delete(`${hosts}/ben`, { token: key }), 404, 'SERVICE_HOST_NOT_FOUND');
    expectError(
      await api.post(hosts, { token: key, body: { identity: 'x', role: 'VIEWER' } }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
  });

  it('issues viewer credentials from {identity} only: no publish right at all, chat scope MEMBER', async () => {
    const { key, stream: s } = await stream();
    const path = `/v1/live-streams/${s.id}/viewer-tokens`;
    for (const body of [{ identity: 'v', role: 'HOST' }, { identity: 'v', publish: true }, {}]) {
      expectError(await api.post(path, { token: key, body }), 400, 'SERVICE_VALIDATION_FAILED');
    }
    const viewer = await api.post(path, { token: key, body: { identity: 'vic' } });
    expect(viewer.status).toBe(201);
    expect(viewer.body.rtc.permissions).toEqual({
      publish: false,
      publishAudio: false,
      publishVideo: false,
      publishData: false,
      subscribe: true,
    });
    expect(jwtClaims(viewer.body.rtc.token)).toMatchObject({
      publish: false,
      publishAudio: false,
      publishVideo: false,
      publishData: false,
    });
    expect(jwtClaims(viewer.body.chat.token)).toMatchObject({ senderId: 'vic', scope: 'MEMBER' });
    // The viewer joins the room and cannot publish.
    const socket = connectSignaling(server.url, viewer.body.rtc.token);
    await socket.next('joined');
    const host = await api.post(`/v1/live-streams/${s.id}/hosts`, {
      token: key,
      body: { identity: 'ana', role: 'HOST' },
    });
    const hostSocket = connectSignaling(server.url, host.body.rtc.token);
    await hostSocket.next('joined');
    socket.send({ type: 'offer', to: 'ana', sdp: sdp(['video', 'sendonly']) });
    expect(await socket.next('error')).toMatchObject({ code: 'publish_not_allowed' });
    socket.send({ type: 'data', payload: 'hi' });
    expect(await socket.next('error')).toMatchObject({ code: 'publish_data_not_allowed' });
    // Leaving is recorded and closes the viewer's connection.
    expect((await api.post(`/v1/live-streams/${s.id}/leave`, { token: key, body: { identity: 'vic' } })).status).toBe(
      204,
    );
    expect((await socket.closed).reason).toBe('left the live stream');
    expect(await admission(viewer.body.rtc.token)).toEqual({
      code: 4403,
      reason: `left live stream ${s.id}; ask for a new viewer credential`,
    });
    expectError(
      await api.post(`/v1/live-streams/${s.id}/leave`, { token: key, body: { identity: 'vic' } }),
      404,
      'SERVICE_PARTICIPANT_NOT_FOUND',
    );
    hostSocket.close();
  });

  it('disconnects a removed host at once and refuses their old token, also after they become a viewer', async () => {
    const { key, stream: s } = await stream();
    const hosts = `/v1/live-streams/${s.id}/hosts`;
    const ana = await api.post(hosts, { token: key, body: { identity: 'ana', role: 'HOST' } });
    const ben = await api.post(hosts, { token: key, body: { identity: 'ben', role: 'CO_HOST' } });
    const anaSocket = connectSignaling(server.url, ana.body.rtc.token);
    await anaSocket.next('joined');
    const benSocket = connectSignaling(server.url, ben.body.rtc.token);
    await benSocket.next('joined');

    expect((await api.delete(`${hosts}/ben?removedBy=ana`, { token: key })).status).toBe(204);
    expect(await benSocket.closed).toEqual({ code: 4403, reason: 'removed as a host' });
    expect(await anaSocket.next('participant_left')).toEqual({ type: 'participant_left', identity: 'ben' });

    expect(await admission(ben.body.rtc.token)).toEqual({
      code: 4403,
      reason: expect.stringContaining('not a host'),
    });
    // A viewer now, ben joins with the viewer token, but the old host token still does not get in.
    const viewer = await api.post(`/v1/live-streams/${s.id}/viewer-tokens`, { token: key, body: { identity: 'ben' } });
    expect(await admission(ben.body.rtc.token)).toMatchObject({ code: 4403 });
    const asViewer = connectSignaling(server.url, viewer.body.rtc.token);
    expect((await asViewer.next('joined')).self.permissions.publish).toBe(false);
    // Invited again, the host credential works again.
    const again = await api.post(hosts, { token: key, body: { identity: 'ben', role: 'CO_HOST' } });
    expect(again.status).toBe(201);
    const back = connectSignaling(server.url, again.body.rtc.token);
    expect((await back.next('joined')).self.permissions.publish).toBe(true);
    back.close();
    asViewer.close();
    anaSocket.close();
  });

  it('ends a stream for everyone at once: connected sockets close with 4410 and no token joins again', async () => {
    const { key, stream: s } = await stream();
    const host = await api.post(`/v1/live-streams/${s.id}/hosts`, {
      token: key,
      body: { identity: 'ana', role: 'HOST' },
    });
    const viewer = await api.post(`/v1/live-streams/${s.id}/viewer-tokens`, { token: key, body: { identity: 'vic' } });
    await api.post(`/v1/live-streams/${s.id}/start`, { token: key });
    const hostSocket = connectSignaling(server.url, host.body.rtc.token);
    await hostSocket.next('joined');
    const viewerSocket = connectSignaling(server.url, viewer.body.rtc.token);
    await viewerSocket.next('joined');

    expect((await api.post(`/v1/live-streams/${s.id}/end`, { token: key })).status).toBe(200);
    expect(await hostSocket.closed).toEqual({ code: 4410, reason: 'the live stream ended' });
    expect(await viewerSocket.closed).toEqual({ code: 4410, reason: 'the live stream ended' });
    for (const token of [host.body.rtc.token, viewer.body.rtc.token]) {
      expect(await admission(token)).toEqual({ code: 4410, reason: expect.stringContaining('ended') });
    }
    expect((await api.get(`/v1/rooms/${s.roomId}/participants`, { token: key })).body.data).toEqual([]);
  });

  it('emits live-stream events for the webhook catalogue', async () => {
    const { key, stream: s } = await stream();
    seen.length = 0;
    await api.post(`/v1/live-streams/${s.id}/hosts`, { token: key, body: { identity: 'ana', role: 'HOST' } });
    await api.post(`/v1/live-streams/${s.id}/start`, { token: key });
    await api.post(`/v1/live-streams/${s.id}/viewer-tokens`, { token: key, body: { identity: 'vic' } });
    await api.post(`/v1/live-streams/${s.id}/end`, { token: key });
    const mine = seen.filter((e) => e.type.startsWith('live_stream.'));
    expect(mine.map((e) => e.type)).toEqual([
      'live_stream.host_joined',
      'live_stream.started',
      'live_stream.viewer_joined',
      'live_stream.ended',
    ]);
    expect(mine[1].data).toEqual({
      liveStream: {
        id: s.id,
        title: 'Launch party',
        status: 'LIVE',
        roomId: s.roomId,
        conversationId: s.conversationId,
      },
    });
    expect(mine[2].data).toEqual({ liveStream: { id: s.id }, identity: 'vic' });
  });
});

describe('live streams from the dashboard', () => {
  it('lists, creates, updates and ends in ?environment=, audited, with the role checks', async () => {
    const { owner, project, keys } = await projectWithKeys(api);
    const base = `/v1/projects/${project.id}/live-streams`;
    const created = await api.post(`${base}?environment=production`, {
      token: owner.token,
      body: { title: 'Keynote' },
    });
    expect(created.body).toMatchObject({ status: 'CREATED', environment: 'production' });
    expect((await api.get(`/v1/live-streams/${created.body.id}`, { token: keys.production })).status).toBe(200);
    expectError(
      await api.get(`${base}/${created.body.id}`, { token: owner.token }),
      404,
      'SERVICE_LIVE_STREAM_NOT_FOUND',
    );
    expect((await api.get(`${base}/${created.body.id}?environment=production`, { token: owner.token })).status).toBe(
      200,
    );
    await api.patch(`${base}/${created.body.id}?environment=production`, {
      token: owner.token,
      body: { title: 'Keynote 2' },
    });
    expect(
      (await api.post(`${base}/${created.body.id}/end?environment=production`, { token: owner.token })).body.status,
    ).toBe('ENDED');
    const audit = await api.get(`/v1/projects/${project.id}/audit-logs?environment=production`, { token: owner.token });
    expect(
      audit.body.data.map((e: { action: string }) => e.action).filter((a: string) => a.startsWith('live_stream')),
    ).toEqual(['live_stream.ended', 'live_stream.updated', 'live_stream.created']);

    const roles = Object.fromEntries(
      await Promise.all(
        (['VIEWER', 'DEVELOPER', 'BILLING'] as const).map(async (role) => {
          const user = await registerUser(api);
          await addMember(api, project.id, owner, user, role);
          return [role, user] as const;
        }),
      ),
    );
    expect((await api.get(`${base}?environment=production`, { token: roles.VIEWER.token })).body.data).toHaveLength(1);
    expectError(
      await api.post(base, { token: roles.VIEWER.token, body: { title: 'x' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expectError(
      await api.post(`${base}/${created.body.id}/end?environment=production`, { token: roles.VIEWER.token }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expect((await api.post(base, { token: roles.DEVELOPER.token, body: { title: 'dev stream' } })).status).toBe(201);
    expectError(await api.get(base, { token: roles.BILLING.token }), 403, 'SERVICE_PERMISSION_DENIED');
  });
});

describe('hosts and viewers from the dashboard', () => {
  it('issues host and viewer credentials, lists who holds them and who is in the room, and removes a host, audited', async () => {
    const { owner, project, keys } = await projectWithKeys(api);
    const s = await createLiveStream(api, keys.staging);
    const base = `/v1/projects/${project.id}/live-streams/${s.id}`;
    const env = '?environment=staging';
    const as = { token: owner.token };

    const host = await api.post(`${base}/hosts${env}`, { ...as, body: { identity: 'ana', role: 'HOST' } });
    expect(host.status).toBe(201);
    expect(host.body).toMatchObject({ identity: 'ana', role: 'HOST', roomId: s.roomId, chat: { scope: 'ADMIN' } });
    expect(host.body.rtc.permissions.publish).toBe(true);
    expect(jwtClaims(host.body.rtc.token)).toMatchObject({ env: 'staging', room: s.roomId, identity: 'ana' });
    const coHost = await api.post(`${base}/hosts${env}`, { ...as, body: { identity: 'ben', role: 'CO_HOST' } });
    expect(coHost.body.chat.scope).toBe('MODERATOR');
    const viewer = await api.post(`${base}/viewer-tokens${env}`, { ...as, body: { identity: 'vic' } });
    expect(viewer.status).toBe(201);
    expect(viewer.body.rtc.permissions).toMatchObject({ publish: false, publishData: false, subscribe: true });
    expect(viewer.body.chat.scope).toBe('MEMBER');

    // The spec's rules hold here too: a viewer has no role, and no body takes a field it does not know.
    for (const [path, body] of [
      [`${base}/viewer-tokens${env}`, { identity: 'v', role: 'HOST' }],
      [`${base}/hosts${env}`, { identity: 'h', role: 'HOST', invitedBy: 'ana' }],
      [`${base}/hosts${env}`, { identity: 'h', role: 'VIEWER' }],
    ] as const) {
      expectError(await api.post(path, { ...as, body }), 400, 'SERVICE_VALIDATION_FAILED');
    }
    expectError(
      await api.post(`${base}/viewer-tokens${env}`, { ...as, body: { identity: 'ana' } }),
      409,
      'SERVICE_ALREADY_HOST',
    );
    // Another environment's stream is unknown.
    expectError(
      await api.post(`${base}/viewer-tokens`, { ...as, body: { identity: 'x' } }),
      404,
      'SERVICE_LIVE_STREAM_NOT_FOUND',
    );

    const socket = connectSignaling(server.url, host.body.rtc.token);
    await socket.next('joined');
    const all = await api.get(`${base}/participants${env}`, as);
    expect(all.status).toBe(200);
    expect(all.body.nextCursor).toBeNull();
    expect(all.body.data.map((p: { identity: string; role: string }) => [p.identity, p.role])).toEqual([
      ['ana', 'HOST'],
      ['ben', 'CO_HOST'],
      ['vic', 'VIEWER'],
    ]);
    expect(all.body.data[0]).toMatchObject({ connected: true, leftAt: null, issuedAt: expect.any(String) });
    expect(all.body.data[0].connectedAt).toEqual(expect.any(String));
    expect(all.body.data[1]).toMatchObject({ connected: false, connectedAt: null });

    // Paged by identity with cursors, and filtered by kind.
    const first = await api.get(`${base}/participants${env}&limit=2`, as);
    expect(first.body.data.map((p: { identity: string }) => p.identity)).toEqual(['ana', 'ben']);
    const second = await api.get(`${base}/participants${env}&limit=2&cursor=${first.body.nextCursor}`, as);
    expect(second.body).toMatchObject({ data: [{ identity: 'vic' }], nextCursor: null });
    const hostsOnly = await api.get(`${base}/participants${env}&kind=host`, as);
    expect(hostsOnly.body.data.map((p: { identity: string }) => p.identity)).toEqual(['ana', 'ben']);
    const viewersOnly = await api.get(`${base}/participants${env}&kind=viewer`, as);
    expect(viewersOnly.body.data.map((p: { identity: string }) => p.identity)).toEqual(['vic']);
    expectError(await api.get(`${base}/participants${env}&kind=guest`, as), 400, 'SERVICE_VALIDATION_FAILED');

    // Removing a connected host closes their connection; the listing keeps them, with when they were removed.
    expect((await api.delete(`${base}/hosts/ana${env}`, as)).status).toBe(204);
    expect(await socket.closed).toEqual({ code: 4403, reason: 'removed as a host' });
    const after = await api.get(`${base}/participants${env}&kind=host`, as);
    expect(after.body.data[0]).toMatchObject({ identity: 'ana', connected: false, leftAt: expect.any(String) });
    expectError(await api.delete(`${base}/hosts/vic${env}`, as), 404, 'SERVICE_HOST_NOT_FOUND');

    const audit = await api.get(`/v1/projects/${project.id}/audit-logs?environment=staging`, as);
    expect(
      audit.body.data
        .filter((e: { action: string }) => e.action.startsWith('live_stream'))
        .map((e: { action: string; details: { identity: string } }) => `${e.action} ${e.details.identity}`),
    ).toEqual([
      'live_stream.host_removed ana',
      'live_stream.viewer_added vic',
      'live_stream.host_added ben',
      'live_stream.host_added ana',
    ]);

    // Reading takes project:read; issuing and removing take live-streams:write.
    const viewerMember = await registerUser(api);
    await addMember(api, project.id, owner, viewerMember, 'VIEWER');
    const asViewer = { token: viewerMember.token };
    expect((await api.get(`${base}/participants${env}`, asViewer)).status).toBe(200);
    for (const res of [
      await api.post(`${base}/hosts${env}`, { ...asViewer, body: { identity: 'h', role: 'HOST' } }),
      await api.post(`${base}/viewer-tokens${env}`, { ...asViewer, body: { identity: 'w' } }),
      await api.delete(`${base}/hosts/ben${env}`, asViewer),
    ]) {
      expectError(res, 403, 'SERVICE_PERMISSION_DENIED');
    }

    // An ended stream issues nothing more.
    await api.post(`${base}/end${env}`, as);
    expectError(
      await api.post(`${base}/viewer-tokens${env}`, { ...as, body: { identity: 'late' } }),
      409,
      'SERVICE_LIVE_STREAM_STATE',
    );
  });
});

describe('each credential request writes in one transaction', () => {
  const memberIds = async (key: string, conversationId: string) =>
    (await api.get(`/v1/chat/conversations/${conversationId}/members`, { token: key })).body.data.map(
      (m: { userId: string }) => m.userId,
    );

  it('adds a host with their chat membership, participant record and audit entry, or none of them', async () => {
    const { owner, project, keys } = await projectWithKeys(api);
    const s = await createLiveStream(api, keys.development);
    const base = `/v1/projects/${project.id}/live-streams/${s.id}`;
    seen.length = 0;
    // The last write of the request (the audit entry) fails: the membership and the participant row go with it.
    const failed = await whileRefusing(server, 'INSERT', 'audit_log', () =>
      api.post(`${base}/hosts`, { token: owner.token, body: { identity: 'ana', role: 'HOST' } }),
    );
    expectError(failed, 409, 'SERVICE_CONFLICT');
    expect(await memberIds(keys.development, s.conversationId)).toEqual([]);
    expect((await api.get(`${base}/participants`, { token: owner.token })).body.data).toEqual([]);
    expect(seen.map((e) => e.type)).toEqual([]); // no member.added for a member who is not there

    const added = await api.post(`${base}/hosts`, { token: owner.token, body: { identity: 'ana', role: 'HOST' } });
    expect(added.status).toBe(201);
    expect(await memberIds(keys.development, s.conversationId)).toEqual(['ana']);
    expect(seen.map((e) => e.type)).toEqual(['member.added', 'live_stream.host_joined']);
  });

  it('issues a viewer credential with the chat membership, or neither', async () => {
    const { key, stream: s } = await stream();
    seen.length = 0;
    // The participant row, written after the membership, fails.
    const failed = await whileRefusing(server, 'INSERT', 'live_stream_participants', () =>
      api.post(`/v1/live-streams/${s.id}/viewer-tokens`, { token: key, body: { identity: 'vic' } }),
    );
    expectError(failed, 409, 'SERVICE_CONFLICT');
    expect(await memberIds(key, s.conversationId)).toEqual([]);
    expect(seen.map((e) => e.type)).toEqual([]);

    expect(
      (await api.post(`/v1/live-streams/${s.id}/viewer-tokens`, { token: key, body: { identity: 'vic' } })).status,
    ).toBe(201);
    expect(await memberIds(key, s.conversationId)).toEqual(['vic']);
    expect(seen.map((e) => e.type)).toEqual(['member.added', 'live_stream.viewer_joined']);
  });

  it('removes a host who already left the stream’s chat', async () => {
    const { owner, project, keys } = await projectWithKeys(api);
    const s = await createLiveStream(api, keys.development);
    const base = `/v1/projects/${project.id}/live-streams/${s.id}`;
    const ana = await api.post(`${base}/hosts`, { token: owner.token, body: { identity: 'ana', role: 'HOST' } });
    // Ana leaves the stream's chat by herself; she is still a host until removed.
    expect(
      (
        await api.delete(`/v1/chat/conversations/${s.conversationId}/members/ana`, {
          token: ana.body.chat.token,
        })
      ).status,
    ).toBe(204);
    expect(await admission(ana.body.rtc.token)).toBe('joined');
    expect((await api.delete(`${base}/hosts/ana`, { token: owner.token })).status).toBe(204);

    const hosts = await api.get(`${base}/participants?kind=host`, { token: owner.token });
    expect(hosts.body.data).toMatchObject([{ identity: 'ana', role: 'HOST', leftAt: expect.any(String) }]);
    expect(await admission(ana.body.rtc.token)).not.toBe('joined');
    const audit = await api.get(`/v1/projects/${project.id}/audit-logs?environment=development`, {
      token: owner.token,
    });
    expect(
      audit.body.data.map((e: { action: string }) => e.action).filter((a: string) => a.startsWith('live_stream.host')),
    ).toEqual(['live_stream.host_removed', 'live_stream.host_added']);
  });
});
