/**
 * The RTC part of the benchmark: how fast the server mints RTC tokens, and how long a message takes
 * through the signaling socket (client → server → other client), beside a bare `ws` echo server
 * (client → server → same client): one server hop each, so the difference is Switchboard's relay.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { type LoadOptions, type Measurement, measure, type Target } from './load.js';
import { percentile } from './report.js';
import { call } from './setup.js';

export interface LatencyResult {
  name: string;
  messages: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
}

function summarize(name: string, samples: number[]): LatencyResult {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { name, messages: samples.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), meanMs: mean };
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends `count` messages one after another, each once the previous has arrived, timing each. */
async function timeMessages(
  sender: WebSocket,
  receiver: WebSocket,
  count: number,
  frame: (i: number) => string,
  isArrival: (data: string) => boolean,
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const arrived = new Promise<void>((resolve) => {
      const onMessage = (data: WebSocket.RawData) => {
        if (!isArrival(data.toString())) return;
        receiver.off('message', onMessage);
        resolve();
      };
      receiver.on('message', onMessage);
    });
    const start = performance.now();
    sender.send(frame(i));
    await arrived;
    samples.push(performance.now() - start);
  }
  return samples;
}

const nextMessage = (socket: WebSocket, type: string) =>
  new Promise<void>((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      if ((JSON.parse(data.toString()) as { type: string }).type !== type) return;
      socket.off('message', onMessage);
      resolve();
    };
    socket.on('message', onMessage);
  });

/** A room with two connected participants; `alice` sends data messages that the server relays to `bob`. */
export async function measureRelay(baseUrl: string, apiKey: string, count: number): Promise<LatencyResult> {
  const room = await call<{ id: string }>(baseUrl, 'POST', '/v1/rooms', { name: `bench-relay-${Date.now()}` }, apiKey);
  const mint = (identity: string) =>
    call<{ token: string }>(baseUrl, 'POST', `/v1/rooms/${room.id}/rtc-tokens`, { identity }, apiKey);
  const socketUrl = (token: string) => `${baseUrl.replace(/^http/, 'ws')}/v1/rtc?access_token=${token}`;
  const alice = await open(socketUrl((await mint('alice')).token));
  await nextMessage(alice, 'joined');
  const bob = await open(socketUrl((await mint('bob')).token));
  await nextMessage(bob, 'joined');
  try {
    const frame = (i: number) => JSON.stringify({ type: 'data', to: 'bob', payload: { i } });
    const warm = await timeMessages(alice, bob, Math.min(200, count), frame, (d) => d.includes('"type":"data"'));
    if (warm.length === 0) throw new Error('relay warm-up sent nothing');
    return summarize(
      'signaling relay (/v1/rtc data)',
      await timeMessages(alice, bob, count, frame, (d) => d.includes('"type":"data"')),
    );
  } finally {
    alice.close();
    bob.close();
  }
}

/** The same loop against the bare echo server. */
export async function measureEcho(baseUrl: string, count: number): Promise<LatencyResult> {
  const socket = await open(baseUrl.replace(/^http/, 'ws'));
  try {
    const frame = (i: number) => JSON.stringify({ type: 'data', to: 'bob', payload: { i } });
    await timeMessages(socket, socket, Math.min(200, count), frame, () => true);
    return summarize('raw ws echo', await timeMessages(socket, socket, count, frame, () => true));
  } finally {
    socket.close();
  }
}

/** RTC tokens minted per second over HTTP with the API key (POST /v1/rooms/{id}/rtc-tokens). */
export async function measureTokenMinting(server: Target, apiKey: string, load: LoadOptions): Promise<Measurement> {
  const room = await call<{ id: string }>(
    server.url,
    'POST',
    '/v1/rooms',
    { name: `bench-tokens-${Date.now()}` },
    apiKey,
  );
  return measure(
    'mint RTC token (POST)',
    { url: `${server.url}/v1/rooms/${room.id}/rtc-tokens`, cpuMicros: server.cpuMicros },
    {
      ...load,
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ identity: 'bench-user', publish: false }),
    },
  );
}

export function formatLatency(results: LatencyResult[]): string {
  const rows = results.map(
    (r) =>
      `${r.name.padEnd(32)} ${String(r.messages).padStart(6)}  ${r.p50Ms.toFixed(3).padStart(8)}  ${r.p99Ms.toFixed(3).padStart(8)}  ${r.meanMs.toFixed(3).padStart(8)}`,
  );
  return [
    `${'One-hop message latency'.padEnd(32)} ${'msgs'.padStart(6)}  ${'p50 ms'.padStart(8)}  ${'p99 ms'.padStart(8)}  ${'mean ms'.padStart(8)}`,
    ...rows,
  ].join('\n');
}
