import type { WebSocket } from 'ws';
import type { EnvironmentScope } from '../../db/scope.js';
import { toIso } from '../clock.js';
import { sendJson } from '../http/socket-endpoint.js';
import type { RtcPermissions } from './permissions.js';
import type { ParticipantView, ServerMessage } from './protocol.js';

/** A participant as every node knows it, whichever node holds its socket. */
export interface Member {
  identity: string;
  name: string | null;
  joinedAt: number;
  permissions: RtcPermissions;
}

/** A participant whose socket is on this node. */
export interface Participant extends Member {
  /** `conn_` id: the connection's record in the observability log. */
  id: string;
  scope: EnvironmentScope;
  room: { id: string; name: string };
  socket: WebSocket;
}

/** How a socket closed, when known. */
export interface CloseInfo {
  code: number;
  reason: string;
}

export const viewOf = (p: Member): ParticipantView => ({
  identity: p.identity,
  name: p.name,
  joinedAt: toIso(p.joinedAt),
  permissions: { ...p.permissions },
});

/** A participant's fields that every node knows. */
export const memberOf = (p: Member): Member => ({
  identity: p.identity,
  name: p.name,
  joinedAt: p.joinedAt,
  permissions: p.permissions,
});

export const send = (socket: WebSocket, message: ServerMessage): void => sendJson(socket, message);
