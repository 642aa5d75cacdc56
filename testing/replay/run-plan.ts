import { comparable, parsedJson } from './comparable.js';
import { IdMap } from './ids.js';
import type { ReplayPlan, SocketPlan, Step } from './plan.js';
import { ReplayedSocket } from './socket-session.js';
import type { Pace, ReplayTarget } from './target.js';
import { MintedTokens } from './tokens.js';

/** A replayed REST call's answer. */
export interface ReplayedAnswer {
  status: number;
  body: string;
}

/** What playing a plan gave: each REST entry's answer, each socket, and what could not be replayed at all. */
export interface PlayedPlan {
  answers: Map<number, ReplayedAnswer>;
  sockets: Map<SocketPlan, ReplayedSocket>;
  /** Entries the replay could not play as recorded (no token minted with the recorded claims), by entry index. */
  unplayable: Map<number, string>;
  webhookAttempts: number;
}

export interface PlayOptions {
  pace: Pace;
  /** How long to wait for a frame the recording had received by then (later waits for a late socket: 1/10). */
  frameWaitMs: number;
  /** How long to wait for the webhook attempts the recording had made by then. */
  webhookWaitMs: number;
}

/** Request headers a replay writes itself or that belong to one connection. */
const OWN_HEADERS = new Set([
  'authorization',
  'cookie',
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
  'keep-alive',
]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The path and query of a recorded URL, with the replay's ids. */
const pathOf = (url: string, ids: IdMap) => {
  const parsed = new URL(url);
  return ids.apply(`${parsed.pathname}${parsed.search}`);
};

/**
 * Plays a recording's client side against a target, in recorded order: each step waits first until every open
 * socket has the frames the recording had received before it, and the target has made as many webhook attempts,
 * so that "as fast as possible" keeps the recording's causes before their effects.
 */
export async function playPlan(plan: ReplayPlan, target: ReplayTarget, options: PlayOptions): Promise<PlayedPlan> {
  const ids = new IdMap();
  const tokens = new MintedTokens();
  const played: PlayedPlan = { answers: new Map(), sockets: new Map(), unplayable: new Map(), webhookAttempts: 0 };
  const open = new Set<ReplayedSocket>();
  let webhooksLate = false;
  const began = Date.now();
  const wsOrigin = target.url.replace(/^http/, 'ws');

  /** Reads the frames received so far beside the recorded ones, for the ids they introduce. */
  function learnFromFrames(socket: ReplayedSocket): void {
    const recorded = socket.plan.received;
    const n = Math.min(socket.received.length, recorded.length);
    for (; socket.learnt < n; socket.learnt++) {
      const expected = recorded[socket.learnt]?.data ?? '';
      const got = socket.received[socket.learnt] ?? '';
      if (JSON.stringify(comparable(expected)) === JSON.stringify(comparable(got)))
        ids.learn(parsedJson(expected), parsedJson(got));
    }
  }

  async function settleBefore(at: number): Promise<void> {
    for (const socket of open) {
      if (socket.closed) continue;
      const expected = socket.plan.received.filter((frame) => frame.at < at).length;
      if (expected > socket.received.length) {
        const reached = await socket.receivedAtLeast(
          expected,
          socket.late ? options.frameWaitMs / 10 : options.frameWaitMs,
        );
        if (!reached) socket.late = true;
      }
      learnFromFrames(socket);
    }
    const attempts = plan.webhooks.filter((attempt) => attempt.at < at).length;
    if (attempts > played.webhookAttempts) {
      const deadline = Date.now() + (webhooksLate ? options.webhookWaitMs / 10 : options.webhookWaitMs);
      for (;;) {
        await target.runDueWebhooks?.();
        played.webhookAttempts = await target.webhookAttempts();
        if (played.webhookAttempts >= attempts) break;
        if (Date.now() >= deadline) {
          webhooksLate = true;
          break;
        }
        await sleep(100);
      }
    }
  }

  async function rest(step: Extract<Step, { kind: 'rest' }>): Promise<void> {
    const { request, response } = step.entry;
    const headers: Record<string, string> = {};
    for (const { name, value } of request.headers ?? [])
      if (!OWN_HEADERS.has(name.toLowerCase()) && !name.startsWith(':') && value !== '[redacted]')
        headers[name] = value;
    const path = pathOf(request.url, ids);
    const fallback = new URL(request.url).pathname.startsWith('/v1/chat/') ? 'chat' : 'key';
    const credential = step.entry._credential;
    const token = tokens.for(credential, fallback, ids);
    if (!token && (credential?.kind ?? fallback) !== 'key') {
      played.unplayable.set(
        step.entryIndex,
        `no ${credential?.kind ?? fallback} token with the recorded claims was minted in the replay`,
      );
      return;
    }
    headers.authorization = `Bearer ${token ?? target.apiKey}`;
    const body = request.postData?.text ? ids.apply(request.postData.text) : undefined;
    if (body !== undefined) headers['content-type'] ??= request.postData?.mimeType ?? 'application/json';
    const res = await fetch(`${target.url}${path}`, { method: request.method, headers, body });
    const text = await res.text();
    played.answers.set(step.entryIndex, { status: res.status, body: text });
    const got = parsedJson(text);
    tokens.collect(got);
    if (res.status === response.status) ids.learn(parsedJson(response.content.text), got);
  }

  async function openSocket(plan: SocketPlan): Promise<void> {
    const token = tokens.for(plan.credential, plan.kind === 'realtime' ? 'chat' : 'rtc', ids);
    if (!token) {
      played.unplayable.set(
        plan.entryIndex,
        `no ${plan.kind === 'realtime' ? 'chat' : 'RTC'} token with the recorded claims was minted in the replay`,
      );
      return;
    }
    const url = new URL(`${wsOrigin}${pathOf(plan.url, ids)}`);
    url.searchParams.set('access_token', token);
    const socket = new ReplayedSocket(plan, url.toString());
    played.sockets.set(plan, socket);
    open.add(socket);
    await socket.opened();
  }

  for (const step of plan.steps) {
    if (options.pace === 'recorded') {
      const wait = began + (step.at - plan.startedAt) - Date.now();
      if (wait > 0) await sleep(wait);
    }
    await settleBefore(step.at);
    if (step.kind === 'rest') await rest(step);
    else if (step.kind === 'advance') await target.advanceClock(step.seconds);
    else if (step.kind === 'open') await openSocket(step.socket);
    else {
      const socket = played.sockets.get(step.socket);
      if (!socket) continue;
      if (step.kind === 'send') socket.send(ids.apply(step.data));
      else {
        await socket.close();
        open.delete(socket);
      }
    }
  }
  // What the recording received and the webhook attempts it saw, after its last step.
  await settleBefore(Number.POSITIVE_INFINITY);
  for (const socket of open) await socket.close();
  return played;
}
