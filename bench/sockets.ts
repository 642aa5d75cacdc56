/**
 * Memory per idle socket (BENCH_ONLY=sockets): the server's heap after a full collection, before and after
 * BENCH_IDLE_SOCKETS (default 1,000) realtime sockets connect (each with its own chat token), then again after as
 * many signaling sockets join rooms of 100 (each with its own RTC token). The sockets are opened by the subscriber
 * process (bench/subscribers.ts), so that only the server's side is counted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_ROOM_PARTICIPANTS } from '../server/rooms/schemas.js';
import { pool, SETUP_CONCURRENCY, spawnSubscribers } from './chat.js';
import { type ServerProcess, spawnServer } from './child.js';
import type { BenchConfig } from './config.js';
import { call, createCredentials } from './setup.js';

/** Issue 15's target: heap per idle socket, realtime and signaling alike. */
const TARGET_BYTES = 10 * 1024;
/** After the sockets connect, presence and join announcements must have settled before the heap is read. */
const QUIET_MS = 1_000;

const progress = (line: string) => process.stderr.write(`${line}\n`);

async function heapAfterQuiet(server: ServerProcess, quiet: () => Promise<unknown>): Promise<number> {
  await quiet();
  return (await server.memory()).heap;
}

export async function runSocketMemoryBench(config: BenchConfig): Promise<void> {
  const count = config.idleSockets;
  const dataDir = await mkdtemp(join(tmpdir(), 'switchboard-sockets-'));
  const server = await spawnServer('switchboard', [dataDir], config.cpuProfDir);
  const subscribers = await spawnSubscribers();
  const quiet = () => subscribers.request({ type: 'quiet', ms: QUIET_MS });
  try {
    const { url } = server;
    const socketBase = url.replace(/^http/, 'ws');
    const { apiKey } = await createCredentials(url);
    progress(`Preparing ${count} chat tokens and ${count} RTC tokens …`);
    const users = Array.from({ length: count }, (_, i) => `idle-user-${i}`);
    const chatTokens = await pool(users, SETUP_CONCURRENCY, (userId) =>
      call<{ token: string }>(url, 'POST', '/v1/chat/tokens', { userId }, apiKey),
    );
    const rooms = await pool(
      Array.from({ length: Math.ceil(count / MAX_ROOM_PARTICIPANTS) }, (_, i) => i),
      SETUP_CONCURRENCY,
      (i) => call<{ id: string }>(url, 'POST', '/v1/rooms', { name: `idle-${i}` }, apiKey),
    );
    const rtcTokens = await pool(users, SETUP_CONCURRENCY, (identity, i) =>
      call<{ token: string }>(
        url,
        'POST',
        `/v1/rooms/${rooms[Math.floor(i / MAX_ROOM_PARTICIPANTS)].id}/rtc-tokens`,
        { identity },
        apiKey,
      ),
    );

    const before = await heapAfterQuiet(server, quiet);
    progress(`Opening ${count} realtime sockets …`);
    await subscribers.open(chatTokens.map(({ token }) => `${socketBase}/v1/realtime?access_token=${token}`));
    const withRealtime = await heapAfterQuiet(server, quiet);
    progress(`Opening ${count} signaling sockets …`);
    await subscribers.open(rtcTokens.map(({ token }) => `${socketBase}/v1/rtc?access_token=${token}`));
    const withSignaling = await heapAfterQuiet(server, quiet);

    const perSocket = (bytes: number) => bytes / count;
    const row = (label: string, bytes: number) =>
      `${label.padEnd(34)} ${(perSocket(bytes) / 1024).toFixed(1).padStart(6)} KB  (target ≤ ${TARGET_BYTES / 1024} KB: ` +
      `${perSocket(bytes) <= TARGET_BYTES ? 'met' : 'NOT met'})`;
    console.log('');
    console.log(`Server heap per idle socket (${count} of each, after a full collection)`);
    console.log(row('realtime (/v1/realtime)', withRealtime - before));
    console.log(row(`signaling (/v1/rtc, rooms of ${MAX_ROOM_PARTICIPANTS})`, withSignaling - withRealtime));
  } finally {
    await subscribers.stop();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
