import type { IncomingMessage } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AppContext } from '../context.js';
import type { UpgradeHandler } from '../http/upgrade-router.js';
import { type Participant, send } from './hub.js';
import { CLOSE, clientMessage } from './protocol.js';

export const SIGNALING_PATH = '/v1/rtc';
const HEARTBEAT_MS = 30_000;
const MAX_MESSAGE_BYTES = 256 * 1024;

function tokenOf(req: IncomingMessage): string | undefined {
  const fromQuery = new URL(req.url ?? '/', 'http://localhost').searchParams.get('access_token');
  if (fromQuery) return fromQuery;
  const header = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return header?.[1];
}

/**
 * `/v1/rtc`: the signaling socket. The handshake always completes, so that a refusal reaches the
 * client as a close code and reason it can show (a failed HTTP upgrade tells a browser nothing).
 */
export function createSignalingEndpoint(app: AppContext): { handleUpgrade: UpgradeHandler; close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const alive = new WeakMap<WebSocket, boolean>();
  const participantOf = new WeakMap<WebSocket, Participant>();
  const heartbeat = setInterval(() => {
    for (const socket of wss.clients) {
      if (alive.get(socket) === false) {
        socket.close(CLOSE.unresponsive, 'no answer to ping');
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  async function admit(socket: WebSocket, req: IncomingMessage): Promise<void> {
    const token = tokenOf(req);
    if (!token) {
      socket.close(CLOSE.badRequest, 'missing access_token');
      return;
    }
    const verified = await app.services.rtcTokens.verify(token);
    if (!verified.ok) {
      socket.close(CLOSE.unauthenticated, verified.reason === 'expired' ? 'RTC token expired' : 'invalid RTC token');
      return;
    }
    const claims = verified.claims;
    const scope = { projectId: claims.projectId, environment: claims.environment };
    const room = app.services.rooms.find(scope, claims.roomId);
    if (!room) {
      socket.close(CLOSE.roomNotFound, `room ${claims.roomId} does not exist (it may have been deleted)`);
      return;
    }
    if (socket.readyState !== socket.OPEN) return;
    const joined = app.services.signaling.join(
      {
        identity: claims.identity,
        name: claims.name,
        permissions: {
          publish: claims.publish,
          publishAudio: claims.publishAudio,
          publishVideo: claims.publishVideo,
          publishData: claims.publishData,
          subscribe: claims.subscribe,
        },
        scope,
        room: { id: room.id, name: room.name },
        socket,
      },
      room.maxParticipants,
    );
    if (joined === 'full') {
      socket.close(CLOSE.roomFull, `room ${room.name} is full (${room.maxParticipants} participants)`);
      return;
    }
    participantOf.set(socket, joined);
    socket.once('close', () => app.services.signaling.leave(joined));
  }

  function onMessage(socket: WebSocket, raw: Buffer): void {
    const participant = participantOf.get(socket);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      send(socket, { type: 'error', code: 'invalid_message', message: 'Messages are JSON objects.' });
      return;
    }
    const message = clientMessage.safeParse(parsed);
    if (!message.success) {
      const detail = message.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; ');
      send(socket, { type: 'error', code: 'invalid_message', message: `Invalid message: ${detail}` });
      return;
    }
    if (!participant) {
      send(socket, { type: 'error', code: 'not_joined', message: 'Wait for the "joined" message before sending.' });
      return;
    }
    app.services.signaling.handle(participant, message.data);
  }

  return {
    handleUpgrade(req, socket, head) {
      wss.handleUpgrade(req, socket, head, (ws) => {
        alive.set(ws, true);
        ws.on('pong', () => alive.set(ws, true));
        ws.on('message', (data, isBinary) => {
          if (isBinary) send(ws, { type: 'error', code: 'invalid_message', message: 'Messages are JSON text.' });
          else onMessage(ws, data as Buffer);
        });
        ws.on('error', () => ws.terminate());
        admit(ws, req).catch((err: unknown) => {
          app.logger.error({ err }, 'signaling admission failed');
          ws.close(1011, 'internal error');
        });
      });
    },
    close() {
      clearInterval(heartbeat);
      app.services.signaling.closeAll(CLOSE.goingAway, 'server shutting down');
      for (const socket of wss.clients) socket.terminate();
      wss.close();
    },
  };
}
