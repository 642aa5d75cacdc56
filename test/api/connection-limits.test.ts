import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ConnectionInfo } from '../../server/events/bus.js';
import { createEventBus, type EventBus, startServer } from '../../server/index.js';
import { createRoom, mintChatToken, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { type Client, client } from '../support/http.js';
import { signedInClient } from '../support/sdk.js';
import { makeDataDir, startTestServer } from '../support/server.js';
import { connectRealtime, connectSignaling, type SocketClient, silentSocket } from '../support/socket-client.js';
import { useTestServer } from '../support/use-test-server.js';
import { closeWithin, eventually } from '../support/wait.js';

const open: SocketClient[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

/** Closes a realtime socket and resolves once the server has closed it too (its limits count it no more). */
function closeOnServer(events: EventBus, socket: SocketClient & { connectionId: string }): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    const off = events.on('connection.closed', ({ id }) => {
      if (id !== socket.connectionId) return;
      off();
      resolve();
    });
  });
  socket.close();
  return closed;
}

/** A server with these limits, and every connection it admitted. */
function useLimitedServer(options: Parameters<typeof useTestServer>[0]) {
  const events = createEventBus();
  const opened: ConnectionInfo[] = [];
  events.on('connection.opened', (connection) => opened.push(connection));
  return { events, opened, t: useTestServer({ ...options, events }) };
}

/** Opens sockets as one environment's end users: realtime ones with chat tokens, signaling ones in one room. */
async function endUsers(api: Client, key: string, url: string) {
  const room = await createRoom(api, key);
  let n = 0;
  return {
    /** A realtime socket, once the server admitted it. */
    async realtime(): Promise<SocketClient & { connectionId: string }> {
      const socket = connectRealtime(url, await mintChatToken(api, key, `user-${++n}`));
      open.push(socket);
      const { connectionId } = await socket.next('connected');
      return Object.assign(socket, { connectionId });
    },
    /** A signaling socket, once the server admitted it into the room. */
    async signaling(): Promise<SocketClient> {
      const socket = connectSignaling(url, (await mintRtcToken(api, key, room.id, { identity: `peer-${++n}` })).token);
      open.push(socket);
      await socket.next('joined');
      return socket;
    },
    /** Both sockets of a refused end user, closed by the server with their code and reason. */
    async refused(): Promise<{ code: number; reason: string }[]> {
      const chatToken = await mintChatToken(api, key, `user-${++n}`);
      const rtcToken = (await mintRtcToken(api, key, room.id, { identity: `peer-${++n}` })).token;
      const sockets = [connectRealtime(url, chatToken), connectSignaling(url, rtcToken)];
      open.push(...sockets);
      return Promise.all(sockets.map((socket) => socket.closed));
    },
  };
}

describe('at the server’s WebSocket limit', () => {
  // Fewer HTTP connections than sockets: sockets that counted as HTTP connections would lock the API out.
  const LIMITS = { webSockets: { max: 40 }, http: { maxConnections: 12 } };
  // A stand-in for the dashboard's build (test/api/dashboard.test.ts serves the same): its first page is what counts.
  const dashboardDir = mkdtempSync(join(tmpdir(), 'switchboard-dashboard-'));
  writeFileSync(join(dashboardDir, 'index.html'), '<!doctype html><title>Switchboard</title><div id="root"></div>');
  afterAll(() => rmSync(dashboardDir, { recursive: true, force: true }));
  const { events, opened, t } = useLimitedServer({ security: LIMITS, dashboardDir });

  it('keeps REST, the dashboard, /healthz and the CLI’s calls answering, and closes the next socket with 1013', async () => {
    const { api, server } = t;
    const { project, keys, owner } = await projectWithKeys(api);
    const users = await endUsers(api, keys.development, server.url);
    // One after the other: a handshake is an HTTP connection until it is upgraded.
    const chatting = [];
    for (let i = 0; i < LIMITS.webSockets.max / 2; i++) {
      chatting.push(await users.realtime());
      await users.signaling();
    }
    expect(opened).toHaveLength(LIMITS.webSockets.max);

    for (const { code, reason } of await users.refused()) {
      expect(code).toBe(1013);
      expect(reason).toBe('server at its limit of 40 WebSockets, retry later');
    }
    // Refused sockets joined nothing: no presence, no participant, no connection record.
    expect(opened).toHaveLength(LIMITS.webSockets.max);

    const rest = await api.get('/v1/rooms', { token: keys.development });
    expect(rest.status).toBe(200);
    expect(rest.body.data).toHaveLength(1);
    const session = await api.get(`/v1/projects/${project.id}`, { token: owner.token });
    expect(session.status).toBe(200);
    const dashboard = await api.get('/');
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toContain('<div id="root">');
    expect((await api.get('/healthz')).body).toMatchObject({ status: 'ok' });
    // What `switchboard projects list` does: the SDK's ConsoleClient with a session.
    const cli = await signedInClient(server.url);
    await cli.projects.create({ name: 'still answering' });
    expect((await cli.projects.list()).data.map((p) => p.name)).toEqual(['still answering']);
    // Eight HTTP connections at once: had the 40 sockets counted among the 12 allowed, none would be left.
    const answers = await Promise.all(Array.from({ length: 8 }, () => api.get('/healthz')));
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));

    // A socket that closes gives its place to the next.
    await closeOnServer(events, chatting[0]);
    await users.realtime();
    expect((await users.refused()).map(({ code }) => code)).toEqual([1013, 1013]);
  });
});

describe('an environment at its WebSocket limit', () => {
  const { events, opened, t } = useLimitedServer({ security: { webSockets: { max: 50, perEnvironment: 3 } } });

  it('refuses that environment’s next socket with 1013, while other environments and projects connect', async () => {
    const { api, server } = t;
    const first = await projectWithKeys(api);
    const full = await endUsers(api, first.keys.development, server.url);
    const leaving = await full.realtime();
    await full.realtime();
    await full.signaling();
    for (const { code, reason } of await full.refused()) {
      expect(code).toBe(1013);
      expect(reason).toBe('development environment at its limit of 3 WebSockets, retry later');
    }
    expect(opened.filter((c) => c.projectId === first.project.id && c.environment === 'development')).toHaveLength(3);

    // The same project's staging, and another project's development, each have their own three.
    const staging = await endUsers(api, first.keys.staging, server.url);
    const other = await projectWithKeys(api);
    const otherDevelopment = await endUsers(api, other.keys.development, server.url);
    for (const users of [staging, otherDevelopment]) {
      await users.realtime();
      await users.realtime();
      await users.signaling();
      expect((await users.refused()).map(({ code }) => code)).toEqual([1013, 1013]);
    }

    // A place freed in the full environment is taken again.
    await closeOnServer(events, leaving);
    await full.signaling();
    expect((await full.refused()).map(({ code }) => code)).toEqual([1013, 1013]);
  });
});

describe('closing the server', () => {
  it('ends its WebSockets at once, also those of clients that answer nothing', async () => {
    const server = await startTestServer({ security: { webSockets: { max: 1 } } });
    try {
      const api = client(server.url);
      const { keys } = await projectWithKeys(api);
      const socketFor = async (userId: string) =>
        silentSocket(server.url, `/v1/realtime?access_token=${await mintChatToken(api, keys.development, userId)}`);
      const admitted = await socketFor('quiet-1');
      await eventually(admitted.received, (text) => text.includes('"type":"connected"'));
      // Refused at the limit: closed with 1013, a close frame this client leaves unanswered.
      const refused = await socketFor('quiet-2');
      await eventually(refused.received, (text) => text.includes('server at its limit'));
      // `ws` waits 30 s for the answer to a close frame before it cuts the connection: the server must not.
      expect(await closeWithin(server)).toBe('closed');
      await Promise.all([admitted.ended, refused.ended]);
    } finally {
      await server.dispose();
    }
  }, 20_000);
});

describe('the open-file limit', () => {
  it('is warned about, at start, when the limits given do not fit under it', async () => {
    const lines: string[] = [];
    const log = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const dataDir = makeDataDir();
    const start = (webSockets: number) =>
      startServer({
        dataDir,
        port: 0,
        logger: pino({ level: 'warn' }, log),
        openFileLimit: 4096,
        security: { webSockets: { max: webSockets } },
      });
    try {
      // 4,096 files: 410 kept free, 3,000 sockets given, the default HTTP allowance shrinks to the 686 left.
      await (await start(3_000)).close();
      expect(lines).toEqual([]);
      await (await start(5_000)).close();
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({
        level: 40,
        msg: expect.stringContaining('This process may open 4096 files, but up to 100 HTTP connections and 5000'),
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
