/**
 * The pool of media processes (server/media/media-pool.ts) driven through its IPC protocol, with the real entry: a
 * process that holds no room for `idleStopMs` stops, and the next room starts one again on the same UDP port; and
 * the processes' ports (media-ports.ts).
 */
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import pino from 'pino';
import { expect, it } from 'vitest';
import { appFiles } from '../../server/app-files/app-files.js';
import { createMediaPool } from '../../server/media/media-pool.js';
import { mediaProcessPorts } from '../../server/media/media-ports.js';
import type { MediaReply } from '../../server/media/protocol.js';
import { childProcesses } from '../support/processes.js';
import { eventually } from '../support/wait.js';

const rights = { publishAudio: true, publishVideo: true, subscribe: true };

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  socket.bind(0, '0.0.0.0');
  await once(socket, 'listening');
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

it('stops a process once it has held no room for a while, and starts one again on its port for the next room', async () => {
  const replies: MediaReply[] = [];
  const pool = createMediaPool({
    entry: appFiles.mediaProcess(),
    processes: 1,
    udpPort: await freeUdpPort(),
    logger: pino({ level: 'silent' }),
    onReply: (reply) => replies.push(reply),
    onRestart: () => {},
    idleStopMs: 100,
  });
  const running = () => childProcesses().filter(({ pid }) => pool.pids().includes(pid));
  /** A request the process answers (a `failed` for an offer that is no SDP): it is up, its port bound. */
  const answered = async (conn: string) => {
    pool.send({ type: 'publish', room: 'r', conn, sdp: 'not an offer' });
    await eventually(
      async () => replies.some((reply) => reply.type === 'failed' && reply.conn === conn),
      (found) => found,
      15_000,
    );
  };
  try {
    expect(pool.pids()).toEqual([]);
    pool.send({ type: 'join', room: 'r', conn: 'c1', identity: 'one', rights });
    const [first] = pool.pids();
    await answered('c1');

    pool.send({ type: 'leave', room: 'r', conn: 'c1' });
    await eventually(
      async () => childProcesses().some(({ pid }) => pid === first),
      (alive) => !alive,
      10_000,
    );
    expect(pool.pids()).toEqual([]);

    pool.send({ type: 'join', room: 'r', conn: 'c2', identity: 'two', rights });
    await answered('c2');
    const [second] = pool.pids();
    expect(second).not.toBe(first);
    expect(running().map(({ pid }) => pid)).toEqual([second]);
  } finally {
    await pool.close();
  }
  expect(running()).toEqual([]);
}, 40_000);

it('gives each process a UDP port of its own, consecutive from the first, and refuses ports past 65535', () => {
  expect(mediaProcessPorts(40100, 1)).toEqual([40100]);
  expect(mediaProcessPorts(40100, 3)).toEqual([40100, 40101, 40102]);
  // Port 0: each process's is one the system picks, nothing to check.
  expect(mediaProcessPorts(0, 4)).toEqual([]);
  expect(() => mediaProcessPorts(65535, 2)).toThrow('2 media processes need UDP ports 65535–65536: past 65535');
  expect(() => mediaProcessPorts(40100, 0)).toThrow('rtc.processes must be a whole number from 1 to 64, not 0');
});
