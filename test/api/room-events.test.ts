import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogueEvent, createEventBus } from '../../server/index.js';
import { createRoom, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { connectSignaling } from '../support/socket-client.js';
import { withTestDatabase } from '../support/test-database.js';

const events = createEventBus();
const seen: CatalogueEvent[] = [];
events.on('catalogue', (event) => seen.push(event));
let server: TestServer;
let api: Client;
beforeAll(async () => {
  server = await startTestServer({ events });
  api = client(server.url);
});
afterAll(() => server.dispose());

describe('room and participant events on the internal bus', () => {
  it('emits room.created, participant.joined, participant.left and room.deleted with their data', async () => {
    const { project, keys } = await projectWithKeys(api);
    const room = await createRoom(api, keys.staging, 'watched');
    const { token } = await mintRtcToken(api, keys.staging, room.id, { identity: 'alice' });
    const alice = connectSignaling(server.url, token);
    await alice.next('joined');
    alice.close();
    await alice.closed;
    await expect.poll(() => seen.filter((e) => e.type === 'participant.left').length).toBe(1);
    await api.delete(`/v1/rooms/${room.id}`, { token: keys.staging });

    const scope = { projectId: project.id, environment: 'staging' };
    expect(seen.map((e) => e.type)).toEqual(['room.created', 'participant.joined', 'participant.left', 'room.deleted']);
    expect(seen[0]).toEqual({
      type: 'room.created',
      ...scope,
      data: { room: { id: room.id, name: 'watched', createdAt: expect.any(String) } },
    });
    expect(seen[1]).toEqual({
      type: 'participant.joined',
      ...scope,
      data: {
        room: { id: room.id, name: 'watched' },
        participant: { identity: 'alice', joinedAt: expect.any(String), leftAt: null },
      },
    });
    expect(seen[2].data).toMatchObject({ participant: { identity: 'alice', leftAt: expect.any(String) } });
    expect(seen[3]).toMatchObject({ type: 'room.deleted', ...scope, data: { room: { id: room.id } } });
  });

  it('stores telemetry tagged with the token’s project, environment, room and identity', async () => {
    const { project, keys } = await projectWithKeys(api);
    const room = await createRoom(api, keys.production);
    const { token } = await mintRtcToken(api, keys.production, room.id, { identity: 'bob' });
    await api.post('/v1/telemetry/events', { token, body: { events: [{ type: 'ice.failed', data: { attempt: 2 } }] } });
    const rows = await withTestDatabase(server, (db) =>
      db.query(
        'SELECT project_id, environment, room_id, identity, type, data FROM telemetry_events WHERE room_id = ?',
        [room.id],
      ),
    );
    expect(rows).toEqual([
      {
        project_id: project.id,
        environment: 'production',
        room_id: room.id,
        identity: 'bob',
        type: 'ice.failed',
        data: '{"attempt":2}',
      },
    ]);
  });
});
