/**
 * What recording an environment costs a message POST with 100 realtime subscribers (issue 49: at most 10% of its
 * throughput). Run with `npx tsx bench/recording-cost.ts`: a server process (dist/switchboard.mjs), 100 sockets of one
 * conversation in this process, autocannon POSTing messages with the API key for BENCH_DURATION seconds (default 5),
 * recording off then on, alternately, BENCH_ROUNDS times (default 2). Prints the medians.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { WebSocket } from 'ws';
import { call, createCredentials } from './setup.js';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PORT = 4790 + Math.floor(Math.random() * 100);
const base = `http://127.0.0.1:${PORT}`;

async function startServer(dataDir: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=<folder>: the server writes a CPU profile there when it stops.
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      'dist/switchboard.mjs',
      'serve',
      '--port',
      String(PORT),
      '--data-dir',
      dataDir,
      '--log-level',
      'warn',
      '--access-log',
      'off',
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

/** The server process's CPU time so far, in microseconds (Linux: utime + stime of /proc/<pid>/stat, in ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'recording-bench-'));
  const server = await startServer(dataDir);
  try {
    const creds = await createCredentials(base);
    const members = Array.from({ length: SUBSCRIBERS }, (_, i) => ({ userId: `user-${i}` }));
    const conversation = await call<{ id: string }>(
      base,
      'POST',
      '/v1/chat/conversations',
      { name: 'bench', members },
      creds.apiKey,
    );
    let received = 0;
    const sockets: WebSocket[] = [];
    for (const { userId } of members) {
      const { token } = await call<{ token: string }>(base, 'POST', '/v1/chat/tokens', { userId }, creds.apiKey);
      const socket = new WebSocket(`${base.replace('http', 'ws')}/v1/realtime?access_token=${token}`);
      socket.on('message', () => received++);
      await new Promise((resolve) => socket.once('message', resolve));
      sockets.push(socket);
    }
    const load = () =>
      autocannon({
        url: `${base}/v1/chat/conversations/${conversation.id}/messages`,
        method: 'POST',
        connections: 10,
        duration: DURATION,
        headers: { authorization: `Bearer ${creds.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'bench message', senderId: 'user-0' }),
      });
    await load(); // warm-up
    const off: number[] = [];
    const on: number[] = [];
    const cpuOff: number[] = [];
    const cpuOn: number[] = [];
    const pid = server.pid as number;
    /** Requests a second, and the server's CPU microseconds per request, of one load. */
    const measure = async (rates: number[], cpu: number[]) => {
      const before = cpuMicros(pid);
      const result = await load();
      rates.push(result.requests.average);
      cpu.push(Math.round((cpuMicros(pid) - before) / result.requests.total));
    };
    const path = `/v1/projects/${creds.projectId}/environment/recordings`;
    for (let round = 0; round < ROUNDS; round++) {
      await measure(off, cpuOff);
      const recording = await call<{ id: string }>(
        base,
        'POST',
        path,
        { maxBytes: 100 * 1024 * 1024, maxDurationSeconds: 3600 },
        creds.sessionToken,
      );
      await measure(on, cpuOn);
      const stopped = await call<{ entries: number; bytes: number; endReason: string }>(
        base,
        'POST',
        `${path}/${recording.id}/stop`,
        undefined,
        creds.sessionToken,
      );
      console.log(
        `round ${round + 1}: off ${off.at(-1)} req/s ${cpuOff.at(-1)} µs CPU/POST, on ${on.at(-1)} req/s ${cpuOn.at(-1)} µs CPU/POST; recorded ${stopped.entries} entries, ${(stopped.bytes / 1e6).toFixed(1)} MB, ended ${stopped.endReason}`,
      );
      await fetch(`${base}${path}/${recording.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${creds.sessionToken}` },
      });
    }
    console.log(
      `median POST/s with ${SUBSCRIBERS} subscribers: off ${median(off)}, on ${median(on)} (${((median(on) / median(off) - 1) * 100).toFixed(1)}%); server CPU per POST: off ${median(cpuOff)} µs, on ${median(cpuOn)} µs (${((median(cpuOn) / median(cpuOff) - 1) * 100).toFixed(1)}%); deliveries ${received}`,
    );
    for (const socket of sockets) socket.close();
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
await main();
