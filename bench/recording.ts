/**
 * What recording an environment (issue 49, server/recordings) costs the chat message POST with 100 subscribers online
 * (BENCH_ONLY=recording): the same load against a server whose development environment is not recorded and one
 * whose is (started before the warm-up, with the largest size limit, so that it does not end during the run), in
 * off-on, on-off order over BENCH_RECORDING_ROUNDS rounds (default 4), each on a fresh data folder with its
 * subscribers (permessage-deflate, as browsers) connected. Each POST is recorded as one REST entry and one frame entry
 * listing the 100 sockets it went to.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversationOn, prepareConversation, spawnSubscribers } from './chat.js';
import { spawnServer } from './child.js';
import type { BenchConfig } from './config.js';
import { type LoadOptions, type Measurement, measure } from './load.js';
import { compareOffOn, progress } from './off-on.js';
import { call, createCredentials } from './setup.js';

/** The goal (issue 49): recording costs the message POST with 100 online at most this share of its throughput. */
export const MAX_OVERHEAD = 0.1;
const SUBSCRIBERS = 100;
/** The largest limits a recording takes: neither ends it during a run. */
const MAX_BYTES = 100 * 1024 * 1024;
const MAX_DURATION_SECONDS = 3600;

interface Recorded {
  entries: number;
  bytes: number;
  endReason: string | null;
}

async function measureOnce(
  config: BenchConfig,
  load: LoadOptions,
  recorded: boolean,
  recordings: Recorded[],
): Promise<Measurement> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-bench-recording-'));
  const server = await spawnServer('switchboard', [dataDir], config.cpuProfDir);
  const subscribers = await spawnSubscribers({ deflate: true });
  try {
    const { apiKey, sessionToken, projectId } = await createCredentials(server.url);
    const { target, urls } = conversationOn(server, await prepareConversation(server.url, apiKey, SUBSCRIBERS));
    await subscribers.open(urls);
    const recordingsPath = `/v1/projects/${projectId}/environment/recordings`;
    const recording = recorded
      ? await call<{ id: string }>(
          server.url,
          'POST',
          recordingsPath,
          { maxBytes: MAX_BYTES, maxDurationSeconds: MAX_DURATION_SECONDS },
          sessionToken,
        )
      : undefined;
    const name = `POST message, ${SUBSCRIBERS} online, recording ${recorded ? 'on' : 'off'}`;
    progress(`Measuring ${name} …`);
    const measured = await measure(
      name,
      { url: new URL(target.path, server.url).href, cpuMicros: server.cpuMicros },
      {
        ...load,
        method: 'POST',
        headers: { ...target.headers, 'content-type': 'application/json' },
        body: target.body('hello from the benchmark'),
      },
    );
    if (recording) {
      const stopped = await call<Recorded>(
        server.url,
        'POST',
        `${recordingsPath}/${recording.id}/stop`,
        undefined,
        sessionToken,
      );
      // A recording that ended by itself during the run measured less than the run.
      if (stopped.endReason !== 'stopped') throw new Error(`The recording ended during the run: ${stopped.endReason}.`);
      recordings.push(stopped);
    }
    return measured;
  } finally {
    await subscribers.stop();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Measures both ways and prints the table, the ratios and the ≤ 10% goal line. */
export async function runRecordingBench(config: BenchConfig, load: LoadOptions): Promise<void> {
  const recordings: Recorded[] = [];
  await compareOffOn({
    feature: 'recording',
    scenario: `POST message with ${SUBSCRIBERS} online`,
    rounds: Math.max(1, Math.round(Number(process.env.BENCH_RECORDING_ROUNDS ?? 4))),
    maxOverhead: MAX_OVERHEAD,
    measureOnce: (recorded) => measureOnce(config, load, recorded, recordings),
    notes: () =>
      recordings.map(
        ({ entries, bytes }, i) =>
          `recording ${i + 1}: ${entries} entries, ${(bytes / 1e6).toFixed(1)} MB (warm-up and run; ${Math.round(bytes / entries)} bytes an entry)`,
      ),
  });
}
