/**
 * `/v1/rtc` with `--rtc-media sfu` (experimental, issue 47): the signaling socket's participants and the media process
 * between them. Each participant joins the media process's room with its rights; its `publish` offer and its
 * `subscribe_answer` go there, and what the media process answers goes back to its socket.
 */
import type { Logger } from 'pino';
import type { MediaProcessEntry } from '../app-files/app-files.js';
import { type Participant, send } from '../rtc/participant.js';
import { canSendAudio, canSendVideo } from '../rtc/permissions.js';
import type { MediaClientMessage, ServerMessage } from '../rtc/protocol.js';
import { sentMediaKinds } from '../rtc/sdp.js';
import { startMediaProcess } from './media-process.js';
import type { MediaTotals, ParticipantMediaStats } from './protocol.js';
import { createStatsRequests } from './stats-requests.js';

/** What `rtc.media` picks: peer-to-peer media (`mesh`, the default), or media through the server (`sfu`). */
export type RtcMediaMode = 'mesh' | 'sfu';

export interface MediaSignaling {
  join(participant: Participant): void;
  handle(participant: Participant, message: MediaClientMessage): void;
  leave(participant: Participant): void;
  /** The room's participants with their tracks' counters now (media-stats.ts in the media process). */
  roomStats(roomId: string): Promise<ParticipantMediaStats[]>;
  /** The media process's id, while one runs. */
  pid(): number | undefined;
  close(): Promise<void>;
}

export interface MediaSignalingOptions {
  entry: MediaProcessEntry;
  /** `rtc.udpPort`: the media process's one UDP port. */
  udpPort: number;
  logger: Logger;
  /** A participant with media left: what its connection (`conn_` id) carried. */
  onTotals?(conn: string, totals: MediaTotals): void;
}

export function createMediaSignaling({ entry, udpPort, logger, onTotals }: MediaSignalingOptions): MediaSignaling {
  /** The participants in the media process's rooms, by connection id. */
  const participants = new Map<string, Participant>();
  const toParticipant = (conn: string, message: ServerMessage) => {
    const participant = participants.get(conn);
    if (participant) send(participant.socket, message);
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

  const media = startMediaProcess({
    entry,
    udpPort,
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
    // The new process holds no rooms: the participants join again (their connections to the last one are gone, and
    // publishing again is theirs to do, until renegotiation and reconnection come in later steps).
    onRestart() {
      for (const participant of participants.values()) media.send(joinRequest(participant));
    },
  });

  const statsRequests = createStatsRequests(media);

  return {
    join(participant) {
      participants.set(participant.id, participant);
      media.send(joinRequest(participant));
    },
    handle(participant, message) {
      if (!participants.has(participant.id)) return;
      const room = participant.room.id;
      const conn = participant.id;
      if (message.type === 'subscribe_answer') {
        media.send({ type: 'subscribe_answer', room, conn, sdp: message.sdp });
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
      media.send({ type: 'publish', room, conn, sdp: message.sdp });
    },
    leave(participant) {
      if (!participants.delete(participant.id)) return;
      media.send({ type: 'leave', room: participant.room.id, conn: participant.id });
    },
    roomStats: (roomId) => statsRequests.room(roomId),
    pid: media.pid,
    async close() {
      statsRequests.close();
      await media.close();
    },
  };
}
