import type { WebSocket } from 'ws';
import type { AppContext } from '../../context.js';
import { SHARED_DEFLATE_NEGOTIATION } from '../../http/shared-frame.js';
import { createSocketEndpoint } from '../../http/socket-endpoint.js';
import type { RealtimeConnection } from './hub.js';
import {
  REALTIME_CLOSE,
  REALTIME_DEGRADED_REASON,
  type RealtimeClientMessage,
  type RealtimeServerMessage,
  realtimeClientMessage,
} from './protocol.js';

export const REALTIME_PATH = '/v1/realtime';

/** `/v1/realtime`: one socket per client, authenticated by a chat token. */
export function createRealtimeEndpoint(app: AppContext) {
  async function admit(socket: WebSocket, token: string): Promise<RealtimeConnection | undefined> {
    const claims = await app.services.chatTokens.verify(token);
    if (!claims) {
      socket.close(REALTIME_CLOSE.unauthenticated, 'invalid or expired chat token');
      return undefined;
    }
    if (socket.readyState !== socket.OPEN) return undefined;
    if (app.cluster.busStatus() === 'down') {
      socket.close(REALTIME_CLOSE.tryAgainLater, REALTIME_DEGRADED_REASON);
      return undefined;
    }
    const scope = app.services.socketLimits.admitToEnvironment(socket, claims);
    if (!scope) return undefined;
    return app.services.realtime.connect(scope, claims.userId, socket);
  }

  const endpoint = createSocketEndpoint<RealtimeConnection, RealtimeClientMessage>({
    logger: app.logger,
    clock: app.clock,
    messageRate: app.security.socketMessageRate?.realtime ?? null,
    maxMessageBytes: 16 * 1024,
    perMessageDeflate: SHARED_DEFLATE_NEGOTIATION,
    messageSchema: realtimeClientMessage,
    socketLimits: app.services.socketLimits,
    admit,
    onMessage: (connection, message) => app.services.realtime.handle(connection, message),
    onClose: (connection, code, reason) => app.services.realtime.disconnect(connection, { code, reason }),
    protocolError: (message, code): RealtimeServerMessage => ({ type: 'error', code, message }),
    recorder: app.services.recordings.realtimeRecorder(),
  });

  return {
    handleUpgrade: endpoint.handleUpgrade,
    close() {
      app.services.realtime.close();
      endpoint.close();
    },
  };
}
