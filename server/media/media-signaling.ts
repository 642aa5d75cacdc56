/**
 * `/v1/rtc` with `--rtc-media sfu` (experimental, issue 47): the signaling socket's participants and the media process
 * between them. Each participant joins the media process's room with its rights; its `publish` offer and its
 * `subscribe_answer` go there, and what the media process answers goes back to its socket. With several nodes,
 * "there" is the media process of the room's media home, perhaps another node's (media-routes.ts).
 */
import type { Logger } from 'pino';
import type { MediaProcessEntry } from '../app-files/app-files.js';
import type { Cluster } from '../cluster/cluster.js';
import type { EventBus } from '../events/bus.js';
import { type Participant, send } from '../rtc/participant.js';
import { canSendAudio, canSendVideo } from '../rtc/permissions.js';
import type { MediaClientMessage, ServerMessage } from '../rtc/protocol.js';
import { sentMediaKinds } from '../rtc/sdp.js';
import { createMediaPool } from './media-pool.js';
import { createMediaRoutes } from './media-routes.js';
import type { MediaTotals, ParticipantMediaStats } from './protocol.js';
import { createStatsRequests } from './stats-requests.js';

export type { RtcMediaMode } from '../rtc/protocol.js';

export interface MediaSignaling {
  join(participant: Participant): void;
  handle(participant: Participant, message: MediaClientMessage): void;
  leave(participant: Participant): void;
  /** The media processes' ids, those running (they start with the first join of a room that needs one). */
  pids(): number[];
  /** The room's participants with their tracks' counters now (media-stats.ts in the media process). */
  roomStats(roomId: string): Promise<ParticipantMediaStats[]>;
  close(): Promise<void>;
}

export interface MediaSignalingOptions {
  entry: MediaProcessEntry;
  /** `rtc.udpPort`: the first media process's UDP port (the next ones follow it). */
  udpPort: number;
  /** `rtc.processes`: how many media processes at most, rooms spread over them. */
  processes: number;
  /** `rtc.announceAddresses`: what the media process's descriptions announce instead of its interfaces. */
  announcedAddresses?: readonly string[];
  logger: Logger;
  /** With several nodes, each room's media lives on one of them (media-routes.ts). */
  cluster: Cluster;
  events: EventBus;
  /** A participant with media left: what its connection (`conn_` id) carried. */
  onTotals?(conn: string, totals: MediaTotals): void;
}

export function createMediaSignaling({
  entry,
  udpPort,
  processes,
  announcedAddresses,
  logger,
  cluster,
  events,
  onTotals,
}: MediaSignalingOptions): MediaSignaling {
  /** The participants in the media process's rooms, by connection id. */
  const participants = new Map<string, Participant>();
  const toSocket = (conn: string, message: ServerMessage) => {
    const participant = participants.get(conn);
    if (participant) send(participant.socket, message);
  };
  /** A reply of this node's media process: to a participant here, or of another node whose room's media is here. */
  const toParticipant = (conn: string, message: ServerMessage) => {
    if (participants.has(conn)) toSocket(conn, message);
    else routes.reply(conn, message);
  };
  const joinRequest = (p: Participant) =>
    ({
      type: 'join',
      room: p.room.id,
      conn: p.id,
      identity: p.identity,
      rights: {
        publishAudio: canSendAudio(p.permissions),
        publishVideo: canSendVideo(p.permissions),
        subscribe: p.permissions.subscribe,
      },
    }) as const;

  const media = createMediaPool({
    entry,
    udpPort,
    processes,
    announcedAddresses,
    logger,
    onReply(reply) {
      switch (reply.type) {
        case 'publish_answer':
          toParticipant(reply.conn, { type: 'publish_answer', sdp: reply.sdp });
          return;
        case 'subscribe_offer':
          toParticipant(reply.conn, { type: 'subscribe_offer', sdp: reply.sdp, tracks: reply.tracks });
          return;
        case 'stats':
          statsRequests.answer(reply);
          return;
        case 'media_totals':
          onTotals?.(reply.conn, reply.totals);
          return;
        case 'failed':
          toParticipant(reply.conn, {
            type: 'error',
            code: 'media_failed',
            message:
              reply.refused === 'subscribe_offer'
                ? `The media server could not offer your subscribe connection its new tracks: ${reply.message}`
                : `The media server could not take this ${reply.refused}: ${reply.message}`,
            refused: reply.refused,
          });
      }
    },
    // The new process holds none of its rooms: their participants join again, this node's and other nodes' whose
    // room's media is here, and each is told that its connections to the last one are gone (`media_reset`): it
    // publishes again and takes the next subscribe offer on new connections. Told after its join is sent, so that
    // the new process's first offer to it comes after the frame, on the same path.
    onRestart(rooms) {
      for (const join of routes.joinedHere()) {
        if (!rooms.has(join.room)) continue;
        media.send(join);
        toParticipant(join.conn, { type: 'media_reset' });
      }
    },
  });
  const routes = createMediaRoutes({ toMedia: media.send, toSocket, cluster, events, logger });

  const statsRequests = createStatsRequests(media);

  return {
    join(participant) {
      participants.set(participant.id, participant);
      routes.send(participant, joinRequest(participant));
    },
    handle(participant, message) {
      if (!participants.has(participant.id)) return;
      const room = participant.room.id;
      const conn = participant.id;
      if (message.type === 'subscribe_answer') {
        routes.send(participant, { type: 'subscribe_answer', room, conn, sdp: message.sdp });
        return;
      }
      // Refused only when it sends nothing the token allows; otherwise the media process answers, rejecting the
      // m-lines of the kinds it may not publish (port 0), and forwards nothing of them whatever the client sends.
      const sends = [...sentMediaKinds(message.sdp)].filter((kind) => kind !== 'application');
      const allowed = (kind: string) =>
        kind === 'audio' ? canSendAudio(participant.permissions) : canSendVideo(participant.permissions);
      if (sends.length > 0 && !sends.some(allowed)) {
        send(participant.socket, {
          type: 'error',
          code: 'publish_not_allowed',
          message: 'Your token does not allow publishing anything this offer sends.',
          refused: 'publish',
        });
        return;
      }
      routes.send(participant, { type: 'publish', room, conn, sdp: message.sdp });
    },
    leave(participant) {
      if (!participants.delete(participant.id)) return;
      routes.send(participant, { type: 'leave', room: participant.room.id, conn: participant.id });
    },
    pids: media.pids,
    roomStats: (roomId) => statsRequests.room(roomId),
    async close() {
      // While the bus is up (the cluster closes after the runtime): the other nodes' participants of this node's rooms
      // are closed at once, before the media stops under them.
      await routes.handOver();
      routes.stop();
      statsRequests.close();
      await media.close();
    },
  };
}
