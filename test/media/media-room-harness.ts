/**
 * A test file's media rooms (server/media/room.ts) in the test process: one UDP mux for them all, the werift clients
 * made for them, both closed after the file, and each room's replies to the server kept for reading.
 */
import { afterAll, beforeAll } from 'vitest';
import type { PeerConfig, RTCPeerConnection } from 'werift';
import type { MediaReply, MediaRights } from '../../server/media/protocol.js';
import { MediaRoom } from '../../server/media/room.js';
import { createUdpMux, type UdpMux } from '../../server/media/udp-mux.js';
import { newClient } from './werift-client.js';

export const EVERY_RIGHT: MediaRights = { publishAudio: true, publishVideo: true, subscribe: true };
export const VIEWER: MediaRights = { publishAudio: false, publishVideo: false, subscribe: true };

export function useMediaRooms() {
  let mux: UdpMux | undefined;
  const clients: RTCPeerConnection[] = [];
  beforeAll(async () => {
    mux = await createUdpMux({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(clients.map((pc) => pc.close()));
    await mux?.close();
  });
  return {
    /** A werift client, closed after the file. */
    client(config: Partial<PeerConfig> = {}): RTCPeerConnection {
      const pc = newClient(config);
      clients.push(pc);
      return pc;
    },
    /** A room of the media process on the file's mux, what it told the server, and its last reply of a kind. */
    room() {
      if (!mux) throw new Error('useMediaRooms: a room is made inside a test');
      const replies: MediaReply[] = [];
      const room = new MediaRoom((reply) => replies.push(reply), mux);
      const last = <T extends MediaReply['type']>(type: T, conn: string) =>
        replies
          .filter((r): r is Extract<MediaReply, { type: T }> => r.type === type && 'conn' in r && r.conn === conn)
          .at(-1);
      return { room, replies, last };
    },
  };
}
