import { afterEach, describe, expect, it } from 'vitest';
import {
  addMember,
  createRoom,
  expectError,
  jwtClaims,
  mintRtcToken,
  projectWithKeys,
  registerUser,
} from '../support/factories.js';
import { connectSignaling, type SocketClient } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';

// The session routes of one room that the dashboard's room page, token playground and test call use.
const t = useTestServer();
const open: SocketClient[] = [];
afterEach(() => {
  for (const socket of open.splice(0)) socket.close();
});

async function stagingRoom() {
  const setting = await projectWithKeys(t.api);
  const room = await createRoom(t.api, setting.keys.staging, 'standup');
  const base = `/v1/projects/${setting.project.id}/rooms/${room.id}`;
  return { ...setting, room, base };
}

describe('one room from the dashboard', () => {
  it('reads a room and its live participants in ?environment=; another environment’s room is 404', async () => {
    const { owner, keys, room, base } = await stagingRoom();
    const token = owner.token;

    const got = await t.api.get(`${base}?environment=staging`, { token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: room.id, name: 'standup', environment: 'staging', participantCount: 0 });
    expectError(await t.api.get(base, { token }), 404, 'SERVICE_ROOM_NOT_FOUND');
    expectError(
      await t.api.get(`${base}/participants?environment=production`, { token }),
      404,
      'SERVICE_ROOM_NOT_FOUND',
    );

    const { token: rtc } = await mintRtcToken(t.api, keys.staging, room.id, { identity: 'ada', publishVideo: false });
    const ada = connectSignaling(t.server.url, rtc);
    open.push(ada);
    await ada.next('joined');
    expect((await t.api.get(`${base}?environment=staging`, { token })).body.participantCount).toBe(1);
    // Media goes peer to peer on this server (the mesh): the server has none to show.
    expect((await t.api.get(`${base}/media?environment=staging`, { token })).body).toEqual({
      mode: 'mesh',
      participants: [],
    });
    const participants = await t.api.get(`${base}/participants?environment=staging`, { token });
    expect(participants.body).toEqual({
      data: [
        {
          identity: 'ada',
          name: null,
          joinedAt: expect.stringMatching(/Z$/),
          permissions: { publish: true, publishAudio: true, publishVideo: false, publishData: true, subscribe: true },
        },
      ],
    });
  });

  it('mints an RTC token with the session, as a key would, audited without the token', async () => {
    const { owner, project, room, base } = await stagingRoom();
    const before = Date.now();
    const minted = await t.api.post(`${base}/rtc-tokens?environment=staging`, {
      token: owner.token,
      body: { identity: 'grace', publish: true, publishAudio: false, publishData: false, ttlSeconds: 600 },
    });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    const permissions = { publish: true, publishAudio: false, publishVideo: true, publishData: false, subscribe: true };
    expect(minted.body).toMatchObject({ roomId: room.id, identity: 'grace', permissions });
    const claims = jwtClaims(minted.body.token);
    expect(claims).toMatchObject({ prj: project.id, env: 'staging', room: room.id, identity: 'grace', ...permissions });
    expect((claims.exp as number) * 1000 - before).toBeLessThanOrEqual(600_000 + 1000);
    expect(Date.parse(minted.body.expiresAt)).toBe((claims.exp as number) * 1000);

    // The token joins the room.
    const grace = connectSignaling(t.server.url, minted.body.token);
    open.push(grace);
    expect((await grace.next('joined')).self.identity).toBe('grace');

    const audit = await t.api.get(`/v1/projects/${project.id}/audit-logs?action=rtc_token.created`, {
      token: owner.token,
    });
    expect(audit.body.data).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ type: 'user', email: owner.email }),
        environment: 'staging',
        target: { type: 'room', id: room.id },
        details: { identity: 'grace', ...permissions, expiresAt: minted.body.expiresAt },
      }),
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(minted.body.token);

    expectError(
      await t.api.post(`${base}/rtc-tokens?environment=staging`, {
        token: owner.token,
        body: { identity: 'x', publish: false, publishVideo: true },
      }),
      400,
      'SERVICE_VALIDATION_FAILED',
    );
    expectError(
      await t.api.post(`${base}/rtc-tokens?environment=development`, { token: owner.token, body: { identity: 'x' } }),
      404,
      'SERVICE_ROOM_NOT_FOUND',
    );
  });

  it('deletes a room: its participants are disconnected (4410), the name is free, the deletion is audited', async () => {
    const { owner, project, keys, room, base } = await stagingRoom();
    const { token: rtc } = await mintRtcToken(t.api, keys.staging, room.id, { identity: 'ada' });
    const ada = connectSignaling(t.server.url, rtc);
    open.push(ada);
    await ada.next('joined');

    expectError(await t.api.delete(base, { token: owner.token }), 404, 'SERVICE_ROOM_NOT_FOUND');
    expect((await t.api.delete(`${base}?environment=staging`, { token: owner.token })).status).toBe(204);
    expect((await ada.closed).code).toBe(4410);
    expectError(await t.api.get(`${base}?environment=staging`, { token: owner.token }), 404, 'SERVICE_ROOM_NOT_FOUND');
    await createRoom(t.api, keys.staging, 'standup');

    const audit = await t.api.get(`/v1/projects/${project.id}/audit-logs?action=room.deleted`, { token: owner.token });
    expect(audit.body.data).toEqual([
      expect.objectContaining({
        environment: 'staging',
        target: { type: 'room', id: room.id },
        details: { name: 'standup' },
      }),
    ]);
  });

  it('lets a VIEWER read but not delete or mint, and a BILLING member do neither', async () => {
    const { owner, project, base } = await stagingRoom();
    const viewer = await registerUser(t.api);
    const billing = await registerUser(t.api);
    await addMember(t.api, project.id, owner, viewer, 'VIEWER');
    await addMember(t.api, project.id, owner, billing, 'BILLING');
    const env = '?environment=staging';

    expect((await t.api.get(`${base}${env}`, { token: viewer.token })).status).toBe(200);
    expect((await t.api.get(`${base}/participants${env}`, { token: viewer.token })).status).toBe(200);
    expectError(await t.api.delete(`${base}${env}`, { token: viewer.token }), 403, 'SERVICE_PERMISSION_DENIED');
    expectError(
      await t.api.post(`${base}/rtc-tokens${env}`, { token: viewer.token, body: { identity: 'v' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expectError(await t.api.get(`${base}${env}`, { token: billing.token }), 403, 'SERVICE_PERMISSION_DENIED');
    expectError(
      await t.api.get(`${base}/participants${env}`, { token: billing.token }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    const stranger = await registerUser(t.api);
    expectError(await t.api.get(`${base}${env}`, { token: stranger.token }), 404, 'SERVICE_PROJECT_NOT_FOUND');
  });
});
