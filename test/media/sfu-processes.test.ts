/**
 * The media processes' life with `rtc.media: 'sfu'`: none until a room's first join, rooms spread over a pool of
 * them (`rtc.processes`), a process's death ending its own rooms' media only, none left after close. werift clients
 * in this process publish tagged audio and count what reaches their subscribers.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RTCPeerConnection } from 'werift';
import { createRoom, mintRtcToken, projectWithKeys } from '../support/factories.js';
import { client } from '../support/http.js';
import { childProcesses } from '../support/processes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { connectSignaling, type SocketClient } from '../support/socket-client.js';
import { eventually } from '../support/wait.js';
import { publishAudio, subscribeCounting } from './sfu-participant.js';

/** The server's media processes: children of this test process (the server runs in it) running the media entry. */
const mediaPids = () =>
  childProcesses()
    .filter(({ command }) => command.includes('server/media/main.ts'))
    .map(({ pid }) => pid);

let server: TestServer;
const clients: RTCPeerConnection[] = [];
const sockets: SocketClient[] = [];
beforeAll(async () => {
  server = await startTestServer({ rtc: { media: 'sfu', processes: 2 } });
});
afterAll(async () => {
  for (const socket of sockets) socket.socket.terminate();
  await Promise.all(clients.map((pc) => pc.close()));
  await server?.dispose();
});

/** A room with a publisher of audio tagged `tag` and a subscriber counting it. */
async function roomWithMedia(key: string, name: string, tag: string) {
  const api = client(server.url);
  const room = await createRoom(api, key, name);
  const join = async (identity: string) => {
    const { token } = await mintRtcToken(api, key, room.id, { identity });
    const socket = connectSignaling(server.url, token);
    sockets.push(socket);
    await socket.next('joined', 15_000);
    return socket;
  };
  const publisher = await publishAudio(await join('publisher'), tag);
  const subscriber = await subscribeCounting(await join('subscriber'));
  clients.push(publisher.pc, subscriber.pc);
  /** Sends audio until the subscriber has received `count` more packets of it. */
  const flows = async (count = 10) => {
    const before = subscriber.received.rtp[tag] ?? 0;
    await eventually(
      async () => {
        await publisher.send();
        return subscriber.received.rtp[tag] ?? 0;
      },
      (received) => received >= before + count,
      10_000,
    );
  };
  return { flows, received: subscriber.received };
}

it('forks no media process before a join, one per room up to the pool, and a death ends only its own rooms', async () => {
  const api = client(server.url);
  const { keys } = await projectWithKeys(api);
  // The runtime is loaded (the project above), the SFU on, no participant yet: no media process.
  expect(mediaPids()).toEqual([]);

  const first = await roomWithMedia(keys.development, 'on-the-first', 'A');
  expect(mediaPids()).toHaveLength(1);
  const [firstPid] = mediaPids();
  await first.flows();

  // The second room goes to the process with fewer participants: a second one, started for it.
  const second = await roomWithMedia(keys.development, 'on-the-second', 'B');
  const pids = mediaPids();
  expect(pids).toHaveLength(2);
  const secondPid = pids.find((pid) => pid !== firstPid) as number;
  await second.flows();
  expect(first.received.rtp.B).toBeUndefined();
  expect(second.received.rtp.A).toBeUndefined();

  // The second room's process dies: the first room's media goes on; the second's process is started again.
  process.kill(secondPid, 'SIGKILL');
  await eventually(
    async () => mediaPids(),
    (now) => now.length === 2 && now.includes(firstPid) && !now.includes(secondPid),
    15_000,
  );
  await first.flows();

  await server.close();
  expect(mediaPids()).toEqual([]);
}, 60_000);
