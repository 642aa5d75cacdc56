/**
 * Replay (BENCH_ONLY=replay): a recording of BENCH_REPLAY_ENTRIES HAR entries (default 10,000) replayed into the
 * environment it was recorded in, reset first, as fast as possible (`replay()` of switchboard/testing, in this
 * process, against a server in its own). The recording: a chat token, 50 conversations of alice and bob, alice's
 * realtime socket (one entry, receiving a frame per message), then message POSTs with the key alternating with GETs
 * of the newest message, round the conversations. The figure is the replay's duration, from the call to its result; the target is 30 s. It must find no
 * difference.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ConsoleClient } from '../sdk/index.js';
import { replay } from '../testing/replay/replay.js';
import { spawnServer } from './child.js';
import type { BenchConfig } from './config.js';
import { call, createCredentials } from './setup.js';

const TARGET_MS = 30_000;
/** Alice's conversations, the messages spread over them. */
const CONVERSATIONS = 50;
const progress = (line: string) => process.stderr.write(`${line}\n`);

export async function runReplayBench(config: BenchConfig): Promise<void> {
  const entries = Math.max(10, Math.round(Number(process.env.BENCH_REPLAY_ENTRIES ?? 10_000)));
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-replay-'));
  const server = await spawnServer('switchboard', [dataDir], config.cpuProfDir);
  try {
    const { sessionToken: token, projectId, apiKey: key } = await createCredentials(server.url);
    const recordings = `/v1/projects/${projectId}/environment/recordings`;
    const recording = await call<{ id: string }>(
      server.url,
      'POST',
      `${recordings}?environment=development`,
      { maxBytes: 100 * 1024 * 1024 },
      token,
    );
    progress(`Replay: recording ${entries.toLocaleString('en-US')} entries …`);
    const recordingStarted = performance.now();
    const { token: chatToken } = await call<{ token: string }>(
      server.url,
      'POST',
      '/v1/chat/tokens',
      { userId: 'alice' },
      key,
    );
    const conversations: { id: string }[] = [];
    for (let i = 0; i < CONVERSATIONS; i++)
      conversations.push(
        await call<{ id: string }>(
          server.url,
          'POST',
          '/v1/chat/conversations',
          { name: `bench replay ${i}`, members: [{ userId: 'alice' }, { userId: 'bob' }] },
          key,
        ),
      );
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/v1/realtime?access_token=${chatToken}`);
    let received = 0;
    socket.on('message', () => received++);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const calls = entries - 2 - CONVERSATIONS;
    for (let i = 0; i < calls; i++) {
      const messages = `/v1/chat/conversations/${conversations[Math.floor(i / 2) % CONVERSATIONS]?.id}/messages`;
      if (i % 2 === 0) await call(server.url, 'POST', messages, { senderId: 'alice', text: `message ${i}` }, key);
      else await call(server.url, 'GET', `${messages}?limit=1`, undefined, key);
    }
    const sent = Math.ceil(calls / 2);
    while (received < sent + 1) await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => socket.once('close', resolve).close());
    await call(server.url, 'POST', `${recordings}/${recording.id}/stop?environment=development`, undefined, token);
    const har = await call<{ log: { entries: unknown[] } }>(
      server.url,
      'GET',
      `${recordings}/${recording.id}/har?environment=development`,
      undefined,
      token,
    );
    const recordedMs = performance.now() - recordingStarted;
    progress(`Replay: replaying ${har.log.entries.length.toLocaleString('en-US')} entries …`);
    const started = performance.now();
    const result = await replay(har, {
      target: {
        url: server.url,
        console: new ConsoleClient({ baseUrl: server.url, token }),
        projectId,
        apiKey: key,
      },
    });
    const elapsed = performance.now() - started;
    if (!result.ok)
      throw new Error(
        `The replay found ${result.differences.length} differences: ${JSON.stringify(result.differences[0])}`,
      );
    console.log('');
    console.log(
      `Replay of a recording of ${har.log.entries.length.toLocaleString('en-US')} entries ` +
        `(${result.replayed.rest.toLocaleString('en-US')} REST calls, ${result.replayed.sockets} socket receiving ` +
        `${result.replayed.framesReceived.toLocaleString('en-US')} frames), fast pace, into a reset environment:`,
    );
    console.log(
      `  ${(elapsed / 1000).toFixed(1)} s, ${((result.replayed.rest / elapsed) * 1000).toFixed(0)} calls/s, no ` +
        `difference (target ≤ ${TARGET_MS / 1000} s: ${elapsed <= TARGET_MS ? 'met' : 'NOT met'}); making the ` +
        `recording took ${(recordedMs / 1000).toFixed(1)} s`,
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
