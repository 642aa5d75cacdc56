/**
 * The media process: what the server forks (media-process.ts) to hold its rooms' media (issue 47). Its entry point,
 * run by Node as a child process with an IPC channel: built as dist/media-process.mjs, run with tsx from the sources.
 * A crash here takes media down, not the API; the server starts it again. An exception of werift's (from its event
 * handlers) is logged and does not end it (below).
 */
import { announceAddresses } from './announced-address.js';
import { createMediaStats } from './media-stats.js';
import { type MediaReply, type MediaRequest, mediaRequest } from './protocol.js';
import { MediaRoom } from './room.js';
import { createUdpMux, DEFAULT_RECEIVE_BUFFER_BYTES, type UdpMux } from './udp-mux.js';

const rooms = new Map<string, MediaRoom>();
const stats = createMediaStats(rooms);

/** The addresses to announce instead of the interfaces' (`--rtc-announce-address`): the second argument, if any. */
const announced = (process.argv[3] ?? '').split(',').filter(Boolean);

function send(reply: MediaReply): void {
  // The server may have gone while this was busy (its close during a start): nothing to tell, and it exits below.
  if (!process.connected) return;
  // The server's own descriptions leave with the announced addresses as their host candidates.
  if (reply.type === 'publish_answer' || reply.type === 'subscribe_offer')
    process.send?.({ ...reply, sdp: announceAddresses(reply.sdp, announced) });
  else process.send?.(reply);
}

/** The one UDP port of every peer connection (`--rtc-udp-port`), the process's first argument (0: any free one). */
async function openPort(): Promise<UdpMux> {
  const port = Number(process.argv[2] ?? 0);
  let mux: UdpMux;
  try {
    mux = await createUdpMux({ port });
  } catch (err) {
    // The server checked the port before listening; another program took it since. It starts this process again.
    send({ type: 'log', level: 'error', message: `media process: ${(err as Error).message}` });
    process.exit(1);
  }
  // Linux reports twice what it grants; less than asked means net.core.rmem_max is lower (packets lost in a stall).
  const granted = mux.receiveBufferBytes / 2;
  if (granted < DEFAULT_RECEIVE_BUFFER_BYTES)
    send({
      type: 'log',
      level: 'warn',
      message:
        `media process: UDP port ${mux.port}'s receive buffer is ${Math.round(granted / 1024)} KiB, not the ` +
        `${DEFAULT_RECEIVE_BUFFER_BYTES / 1024 / 1024} MiB asked: raise net.core.rmem_max (sysctl) so that a busy ` +
        'moment loses no packets',
    });
  return mux;
}

// Not awaited at the top level: the single executable bundles this module as CommonJS (build/binary.ts). Nothing uses
// it before `ready`, which the server waits for before it sends a request.
let mux!: UdpMux;

function roomOf(id: string): MediaRoom {
  let room = rooms.get(id);
  if (!room) {
    room = new MediaRoom(send, mux);
    rooms.set(id, room);
  }
  return room;
}

async function handle(request: MediaRequest): Promise<void> {
  switch (request.type) {
    case 'join':
      return roomOf(request.room).join(request.conn, request.identity, request.rights);
    case 'publish':
      return roomOf(request.room).publish(request.conn, request.sdp);
    case 'subscribe_answer':
      return roomOf(request.room).subscribeAnswer(request.conn, request.sdp);
    case 'leave': {
      const room = rooms.get(request.room);
      // Read before its connections close: the connection log keeps what they carried.
      const totals = room && stats.totalsOf(room, request.conn);
      await room?.leave(request.conn);
      if (totals) send({ type: 'media_totals', conn: request.conn, totals });
      if (room?.isEmpty) rooms.delete(request.room);
    }
  }
}

process.on('message', (message: unknown) => {
  const parsed = mediaRequest.safeParse(message);
  if (!parsed.success) {
    send({ type: 'log', level: 'error', message: `media process: refused a request: ${parsed.error.message}` });
    return;
  }
  const request = parsed.data;
  if (request.type === 'stats') {
    const room = rooms.get(request.room);
    send({ type: 'stats', id: request.id, participants: room ? stats.of(room) : [] });
    return;
  }
  handle(request).catch((err: unknown) => {
    send({ type: 'failed', conn: request.conn, refused: request.type, message: (err as Error).message });
  });
});
// werift throws from its event handlers and leaves promises unawaited (a handshake or a send of one connection): that
// connection's failure is its own, and ending the process would take every room's media, the publishers' too (they
// do not publish again after a restart). Logged, so that a failure is seen; the connection fails on its own.
process.on('uncaughtException', (err) => {
  send({ type: 'log', level: 'error', message: `media process: uncaught exception: ${err.stack ?? err.message}` });
});
process.on('unhandledRejection', (reason) => {
  const message = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
  send({ type: 'log', level: 'error', message: `media process: unhandled rejection: ${message}` });
});
// The server is gone (it exited, or closed the channel to stop this process): nothing is left to serve.
process.on('disconnect', () => process.exit(0));
void openPort().then((opened) => {
  mux = opened;
  send({ type: 'ready', udpPort: mux.port });
});
