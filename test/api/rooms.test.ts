import { describe, expect, it } from 'vitest';
import {
  addMember,
  createRoom,
  expectError,
  jwtClaims,
  mintRtcToken,
  projectWithKeys,
  registerUser,
} from '../support/factories.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();
const ENVIRONMENTS = ['development', 'staging', 'production'] as const;

describe('rooms with an API key', () => {
  it('creates a room in the key’s environment', async () => {
    const { keys } = await projectWithKeys(t.api);
    const res = await t.api.post('/v1/rooms', { token: keys.staging, body: { name: 'lobby', maxParticipants: 4 } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^room_/),
      name: 'lobby',
      environment: 'staging',
      maxParticipants: 4,
      participantCount: 0,
    });
    expect((await t.api.get(`/v1/rooms/${res.body.id}`, { token: keys.staging })).body).toEqual(res.body);
  });

  it('keeps names unique within an environment and free across environments', async () => {
    const { keys } = await projectWithKeys(t.api);
    for (const env of ENVIRONMENTS) await createRoom(t.api, keys[env], 'standup');
    expectError(
      await t.api.post('/v1/rooms', { token: keys.staging, body: { name: 'standup' } }),
      409,
      'SERVICE_ROOM_EXISTS',
    );
  });

  it('isolates all three environments: another environment’s room is 404 SERVICE_ROOM_NOT_FOUND, never 403', async () => {
    const { keys } = await projectWithKeys(t.api);
    const rooms = {
      development: await createRoom(t.api, keys.development),
      staging: await createRoom(t.api, keys.staging),
      production: await createRoom(t.api, keys.production),
    };
    for (const keyEnv of ENVIRONMENTS) {
      const listed = await t.api.get('/v1/rooms', { token: keys[keyEnv] });
      expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([rooms[keyEnv].id]);
      for (const roomEnv of ENVIRONMENTS) {
        if (roomEnv === keyEnv) continue;
        const id = rooms[roomEnv].id;
        expectError(await t.api.get(`/v1/rooms/${id}`, { token: keys[keyEnv] }), 404, 'SERVICE_ROOM_NOT_FOUND');
        expectError(
          await t.api.get(`/v1/rooms/${id}/participants`, { token: keys[keyEnv] }),
          404,
          'SERVICE_ROOM_NOT_FOUND',
        );
        expectError(
          await t.api.post(`/v1/rooms/${id}/rtc-tokens`, { token: keys[keyEnv], body: { identity: 'x' } }),
          404,
          'SERVICE_ROOM_NOT_FOUND',
        );
        expectError(await t.api.delete(`/v1/rooms/${id}`, { token: keys[keyEnv] }), 404, 'SERVICE_ROOM_NOT_FOUND');
      }
    }
    // Nothing above deleted anything.
    for (const env of ENVIRONMENTS)
      expect((await t.api.get(`/v1/rooms/${rooms[env].id}`, { token: keys[env] })).status).toBe(200);
    expectError(await t.api.get('/v1/rooms/room_unknown', { token: keys.development }), 404, 'SERVICE_ROOM_NOT_FOUND');
  });

  it('keeps projects apart', async () => {
    const a = await projectWithKeys(t.api);
    const b = await projectWithKeys(t.api);
    const room = await createRoom(t.api, a.keys.development);
    expectError(await t.api.get(`/v1/rooms/${room.id}`, { token: b.keys.development }), 404, 'SERVICE_ROOM_NOT_FOUND');
  });

  it('refuses any environment parameter or field on key routes', async () => {
    const { keys } = await projectWithKeys(t.api);
    const room = await createRoom(t.api, keys.development);
    const refusals = [
      await t.api.post('/v1/rooms', { token: keys.development, body: { name: 'x', environment: 'staging' } }),
      await t.api.get('/v1/rooms?environment=staging', { token: keys.development }),
      await t.api.get(`/v1/rooms/${room.id}?environment=development`, { token: keys.development }),
      await t.api.post(`/v1/rooms/${room.id}/rtc-tokens`, {
        token: keys.development,
        body: { identity: 'a', env: 'staging' },
      }),
      await t.api.post(`/v1/rooms/${room.id}/rtc-tokens`, {
        token: keys.development,
        body: { identity: 'a', environment: 'staging' },
      }),
    ];
    for (const res of refusals) {
      expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
      expect(res.body.message).toMatch(/env/);
    }
  });

  it('deletes a room, freeing its name', async () => {
    const { keys } = await projectWithKeys(t.api);
    const room = await createRoom(t.api, keys.development, 'temp');
    expect((await t.api.delete(`/v1/rooms/${room.id}`, { token: keys.development })).status).toBe(204);
    expectError(await t.api.get(`/v1/rooms/${room.id}`, { token: keys.development }), 404, 'SERVICE_ROOM_NOT_FOUND');
    expectError(await t.api.delete(`/v1/rooms/${room.id}`, { token: keys.development }), 404, 'SERVICE_ROOM_NOT_FOUND');
    await createRoom(t.api, keys.development, 'temp');
  });

  it('pages the list newest first without duplicates', async () => {
    const { keys } = await projectWithKeys(t.api);
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await createRoom(t.api, keys.production, `r${i}`)).id);
    const first = await t.api.get('/v1/rooms?limit=2', { token: keys.production });
    const second = await t.api.get(`/v1/rooms?limit=2&cursor=${first.body.nextCursor}`, { token: keys.production });
    const third = await t.api.get(`/v1/rooms?limit=2&cursor=${second.body.nextCursor}`, { token: keys.production });
    expect(third.body.nextCursor).toBeNull();
    const ids = [...first.body.data, ...second.body.data, ...third.body.data].map((r: { id: string }) => r.id);
    expect(ids).toEqual([...made].reverse());
  });

  it('validates room input', async () => {
    const { keys } = await projectWithKeys(t.api);
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(129) },
      { name: 'x', maxParticipants: 0 },
      { name: 'x', maxParticipants: 101 },
    ]) {
      expectError(await t.api.post('/v1/rooms', { token: keys.development, body }), 400, 'SERVICE_VALIDATION_FAILED');
    }
  });
});

describe('rooms from the dashboard', () => {
  it('lists and creates rooms in ?environment=, audited, with the room roles', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const stagingRoom = await createRoom(t.api, keys.staging, 'from-key');
    const base = `/v1/projects/${project.id}/rooms`;

    const created = await t.api.post(`${base}?environment=staging`, {
      token: owner.token,
      body: { name: 'from-dashboard' },
    });
    expect(created.status).toBe(201);
    expect(created.body.environment).toBe('staging');
    const listed = await t.api.get(`${base}?environment=STAGING`, { token: owner.token });
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([created.body.id, stagingRoom.id]);
    expect((await t.api.get(base, { token: owner.token })).body.data).toEqual([]);
    expectError(await t.api.get(`${base}?environment=qa`, { token: owner.token }), 400, 'SERVICE_VALIDATION_FAILED');

    const audit = await t.api.get(`/v1/projects/${project.id}/audit-logs?action=room.created`, { token: owner.token });
    expect(audit.body.data).toEqual([
      expect.objectContaining({
        environment: 'staging',
        target: { type: 'room', id: created.body.id },
        details: { name: 'from-dashboard' },
      }),
    ]);

    const viewer = await registerUser(t.api);
    const billing = await registerUser(t.api);
    await addMember(t.api, project.id, owner, viewer, 'VIEWER');
    await addMember(t.api, project.id, owner, billing, 'BILLING');
    expect((await t.api.get(base, { token: viewer.token })).status).toBe(200);
    expectError(
      await t.api.post(base, { token: viewer.token, body: { name: 'nope' } }),
      403,
      'SERVICE_PERMISSION_DENIED',
    );
    expectError(await t.api.get(base, { token: billing.token }), 403, 'SERVICE_PERMISSION_DENIED');
  });
});

describe('RTC tokens', () => {
  it('carry project, environment, room, identity, expiry and all rights by default', async () => {
    const { project, keys } = await projectWithKeys(t.api);
    const room = await createRoom(t.api, keys.production);
    const before = Date.now();
    const minted = await mintRtcToken(t.api, keys.production, room.id, { identity: 'alice', name: 'Alice' });
    expect(minted).toMatchObject({
      roomId: room.id,
      identity: 'alice',
      permissions: { publish: true, publishAudio: true, publishVideo: true, publishData: true, subscribe: true },
    });
    const claims = jwtClaims(minted.token);
    expect(claims).toMatchObject({
      prj: project.id,
      env: 'production',
      room: room.id,
      identity: 'alice',
      sub: 'alice',
      name: 'Alice',
      publish: true,
      publishAudio: true,
      publishVideo: true,
      publishData: true,
      subscribe: true,
    });
    const lifetime = (claims.exp as number) * 1000 - before;
    expect(lifetime).toBeGreaterThan(6 * 3600 * 1000 - 5000);
    expect(lifetime).toBeLessThanOrEqual(6 * 3600 * 1000 + 1000);
    expect(Date.parse(minted.expiresAt)).toBe((claims.exp as number) * 1000);
  });

  it('turns audio and video off with publish, and honours each flag and ttlSeconds', async () => {
    const { keys } = await projectWithKeys(t.api);
    const room = await createRoom(t.api, keys.development);
    const viewer = await mintRtcToken(t.api, keys.development, room.id, { publish: false });
    expect(viewer.permissions).toEqual({
      publish: false,
      publishAudio: false,
      publishVideo: false,
      publishData: true,
      subscribe: true,
    });
    const audioOnly = await mintRtcToken(t.api, keys.development, room.id, {
      publishVideo: false,
      publishData: false,
      ttlSeconds: 60,
    });
    expect(audioOnly.permissions).toEqual({
      publish: true,
      publishAudio: true,
      publishVideo: false,
      publishData: false,
      subscribe: true,
    });
    const claims = jwtClaims(audioOnly.token);
    expect((claims.exp as number) - (claims.iat as number)).toBe(60);
  });

  it.each([
    [{}, 'identity'],
    [{ identity: '' }, 'identity'],
    [{ identity: 'a', publish: false, publishVideo: true }, 'publishVideo'],
    [{ identity: 'a', publish: 'yes' }, 'publish'],
    [{ identity: 'a', ttlSeconds: 59 }, 'ttlSeconds'],
    [{ identity: 'a', ttlSeconds: 7 * 24 * 3600 + 1 }, 'ttlSeconds'],
    [{ identity: 'a', room: 'other' }, 'room'],
  ])('refuses %j naming %s', async (body, field) => {
    const { keys } = await projectWithKeys(t.api);
    const room = await createRoom(t.api, keys.development);
    const res = await t.api.post(`/v1/rooms/${room.id}/rtc-tokens`, { token: keys.development, body });
    expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
    expect(res.body.message).toContain(field);
  });

  it('are not accepted where an API key or session is needed', async () => {
    const { owner, project, keys } = await projectWithKeys(t.api);
    const room = await createRoom(t.api, keys.development);
    const { token } = await mintRtcToken(t.api, keys.development, room.id);
    expectError(await t.api.get('/v1/rooms', { token }), 401, 'SERVICE_UNAUTHENTICATED');
    expectError(await t.api.get(`/v1/projects/${project.id}`, { token }), 401, 'SERVICE_UNAUTHENTICATED');
    expect((await t.api.get(`/v1/projects/${project.id}`, { token: owner.token })).status).toBe(200);
  });
});
