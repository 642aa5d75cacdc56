import type { WebSocket } from 'ws';
import type { AppContext } from '../context.js';
import { createSocketEndpoint } from '../http/socket-endpoint.js';
import type { MediaSignaling } from '../media/media-signaling.js';
import type { RoomRow } from '../rooms/service.js';
import type { CloseInfo, Participant } from './hub.js';
import { send } from './participant.js';
import {
  CLOSE,
  type ClientMessage,
  clientMessage,
  isMediaMessage,
  type ServerMessage,
  SIGNALING_DEGRADED_REASON,
} from './protocol.js';

export const SIGNALING_PATH = '/v1/rtc';

/**
 * `/v1/rtc`: the signaling socket, authenticated by an RTC token. With `media` (`--rtc-media sfu`, experimental), its
 * participants' media also goes through the server's media process.
 */
export function createSignalingEndpoint(app: AppContext, media?: MediaSignaling) {
  async function admit(socket: WebSocket, token: string): Promise<Participant | undefined> {
    const verified = await app.services.rtcTokens.verify(token);
    if (!verified.ok) {
      socket.close(CLOSE.unauthenticated, verified.reason === 'expired' ? 'RTC token expired' : 'invalid RTC token');
      return undefined;
    }
    const claims = verified.claims;
    const scope = { projectId: claims.projectId, environment: claims.environment };
    const permissions = {
      publish: claims.publish,
      publishAudio: claims.publishAudio,
      publishVideo: claims.publishVideo,
      publishData: claims.publishData,
      subscribe: claims.subscribe,
    };
    // Checked here, and again if a change closed connections while it was looked up (hub `closings`): what the
    // lookups found then holds at the join, and a deletion, removal or end after this point closes the socket.
    let room: RoomRow | undefined;
    let refusal: CloseInfo | undefined;
    let closings: number;
    do {
      closings = app.services.signaling.closings();
      room = await app.services.rooms.find(scope, claims.roomId);
      refusal = room && (await app.services.liveStreams.admissionRefusal(scope, room.id, claims.identity, permissions));
    } while (closings !== app.services.signaling.closings());
    if (!room) {
      socket.close(CLOSE.roomNotFound, `room ${claims.roomId} does not exist (it may have been deleted)`);
      return undefined;
    }
    if (refusal) {
      socket.close(refusal.code, refusal.reason);
      return undefined;
    }
    if (socket.readyState !== socket.OPEN) return undefined;
    if (app.cluster.busStatus() === 'down') {
      socket.close(CLOSE.tryAgainLater, SIGNALING_DEGRADED_REASON);
      return undefined;
    }
    const shared = app.services.socketLimits.admitToEnvironment(socket, scope);
    if (!shared) return undefined;
    const joined = await app.services.signaling.join(
      {
        identity: claims.identity,
        name: claims.name,
        permissions,
        scope: shared,
        room: { id: room.id, name: room.name },
        socket,
      },
      room.maxParticipants,
    );
    if (joined === 'full') {
      socket.close(CLOSE.roomFull, `room ${room.name} is full (${room.maxParticipants} participants)`);
      return undefined;
    }
    if (joined === 'unavailable') {
      socket.close(CLOSE.tryAgainLater, SIGNALING_DEGRADED_REASON);
      return undefined;
    }
    // Closed while its place was taken: it joined and left already.
    if (joined === 'closed') return undefined;
    media?.join(joined);
    return joined;
  }

  // A participant the server removes stops sending and receiving media at once, not after its closing handshake.
  if (media) app.services.signaling.onClosing((participant) => media.leave(participant));

  const endpoint = createSocketEndpoint<Participant, ClientMessage>({
    logger: app.logger,
    clock: app.clock,
    messageRate: app.security.socketMessageRate?.signaling ?? null,
    maxMessageBytes: 256 * 1024,
    messageSchema: clientMessage,
    socketLimits: app.services.socketLimits,
    admit,
    onMessage: (participant, message) => {
      if (!isMediaMessage(message)) app.services.signaling.handle(participant, message);
      else if (media) media.handle(participant, message);
      else
        send(participant.socket, {
          type: 'error',
          code: 'media_unavailable',
          message: 'This server relays peer-to-peer media: `publish` needs `switchboard serve --rtc-media sfu`.',
          refused: message.type,
        });
    },
    onClose: (participant, code, reason) => {
      media?.leave(participant);
      void app.services.signaling.leave(participant, { code, reason });
    },
    protocolError: (message, code): ServerMessage => ({ type: 'error', code, message }),
    recorder: app.services.recordings.signalingRecorder(),
  });

  return {
    handleUpgrade: endpoint.handleUpgrade,
    /** Resolves once the participants' places in Redis are given up (with a cluster). */
    async close(): Promise<void> {
      const leaving = app.services.signaling.closeAll(CLOSE.goingAway, 'server shutting down');
      endpoint.close();
      await leaving;
    },
  };
}
