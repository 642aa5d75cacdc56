import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { CLOSE_UNRESPONSIVE, HEARTBEAT_MS } from '../../server/http/socket-endpoint.js';
import { projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { connectRealtime, type SocketClient, silentSocket } from '../support/socket-client.js';
import { closeWithin, eventually } from '../support/wait.js';

// A server of its own: its heartbeat's timer starts with its first socket, which must come after the fake intervals.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.dispose());

/** Counts the pings the socket receives. */
function pingsReceived(socket: SocketClient): { length: number } {
  const pings = { length: 0 };
  socket.socket.on('ping', () => pings.length++);
  return pings;
}

/** A round trip through the socket: once `pong` is back, the server has read everything the client sent before. */
async function roundTrip(socket: SocketClient): Promise<void> {
  socket.send({ type: 'ping' });
  await socket.next('pong');
}

describe('the sockets’ heartbeat', () => {
  it('closes a socket that leaves a ping unanswered with 4408 at its next one, and keeps a socket that answers', async () => {
    const api = client(server.url);
    const { keys } = await projectWithKeys(api);
    const token = async (userId: string) =>
      (await api.post('/v1/chat/tokens', { token: keys.development, body: { userId } })).body.token;
    const [aliceToken, bobToken] = [await token('alice'), await token('bob')];
    // Only intervals are faked, and before the server's first socket: its heartbeat is the one these sockets start.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const answering = connectRealtime(server.url, aliceToken);
    const silent = connectRealtime(server.url, bobToken, { autoPong: false });
    try {
      const answeringPings = pingsReceived(answering);
      const silentPings = pingsReceived(silent);
      await Promise.all([answering.next('connected'), silent.next('connected')]);

      await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
      await Promise.all([roundTrip(answering), roundTrip(silent)]);
      expect([answeringPings.length, silentPings.length]).toEqual([1, 1]);

      await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
      expect(await silent.closed).toEqual({ code: CLOSE_UNRESPONSIVE, reason: 'no answer to ping' });
      await roundTrip(answering);
      expect(answeringPings.length).toBe(2);
      expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    } finally {
      vi.useRealTimers();
      answering.close();
      silent.close();
    }
  });

  it('ends a socket it closed for not answering as soon as the server closes, though the client never answers the close', async () => {
    const own = await startTestServer();
    try {
      const api = client(own.url);
      const { keys } = await projectWithKeys(api);
      const chat = await api.post('/v1/chat/tokens', { token: keys.development, body: { userId: 'mute' } });
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const mute = silentSocket(own.url, `/v1/realtime?access_token=${chat.body.token}`);
      await eventually(mute.received, (text) => text.includes('"type":"connected"'));
      await vi.advanceTimersByTimeAsync(2 * HEARTBEAT_MS);
      await eventually(mute.received, (text) => text.includes('no answer to ping'));
      vi.useRealTimers();
      // `ws` waits 30 s for the answer to a close frame before it cuts the connection: the server must not.
      expect(await closeWithin(own)).toBe('closed');
      await mute.ended;
    } finally {
      vi.useRealTimers();
      await own.dispose();
    }
  }, 20_000);
});
