import { comparable, differencesOf } from './comparable.js';
import type { HarEntry } from './har-file.js';
import { maskIds } from './ids.js';
import type { ReplayPlan } from './plan.js';
import type { PlayedPlan } from './run-plan.js';

/** One way the replay's outcome differs from the recording's, at one entry of the file. */
export interface ReplayDifference {
  /** The entry's index in the file's `log.entries`; null for a webhook attempt the recording does not have. */
  entry: number | null;
  kind: 'rest' | 'realtime' | 'signaling' | 'webhook';
  /** What the entry is: `POST /v1/rooms`, `realtime socket /v1/realtime`, `webhook room.created → https://…`. */
  subject: string;
  what:
    | 'not replayed'
    | 'status'
    | 'body'
    | 'frame missing'
    | 'frame unexpected'
    | 'attempt missing'
    | 'attempt unexpected';
  /** In a body: the member that differs (`data.message.text`). */
  path?: string;
  expected?: unknown;
  got?: unknown;
}

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return maskIds(`${parsed.pathname}${parsed.search}`);
};

const restSubject = (entry: HarEntry) => `${entry.request.method} ${pathOf(entry.request.url)}`;

/** What a webhook attempt is compared by: its event's type, the endpoint's URL, the answer's status, the body. */
const attemptKey = (entry: HarEntry) =>
  JSON.stringify([
    entry._webhook?.eventType ?? '',
    entry.request.url,
    entry.response.status,
    comparable(entry.request.postData?.text),
  ]);

/** Items of `expected` that `got` lacks and of `got` that `expected` lacks, each counted (a multiset difference). */
function unmatched<T>(expected: T[], got: T[], key: (item: T) => string): { missing: T[]; unexpected: T[] } {
  const left = new Map<string, T[]>();
  for (const item of got) {
    const k = key(item);
    left.set(k, [...(left.get(k) ?? []), item]);
  }
  const missing: T[] = [];
  for (const item of expected) {
    const same = left.get(key(item));
    if (same?.length) same.shift();
    else missing.push(item);
  }
  return { missing, unexpected: [...left.values()].flat() };
}

/**
 * Compares the replay with the recording: each REST call's status and body (ids, times, origins and secrets set
 * aside), the frames each socket received (as a multiset: frames of independent causes may interleave otherwise),
 * and the webhook attempts made (event type, endpoint, status, body), also as a multiset.
 */
export function compareReplay(
  entries: HarEntry[],
  plan: ReplayPlan,
  played: PlayedPlan,
  webhookAttempts: HarEntry[],
): ReplayDifference[] {
  const differences: ReplayDifference[] = [];
  for (const step of plan.steps) {
    if (step.kind !== 'rest') continue;
    const subject = restSubject(step.entry);
    const answer = played.answers.get(step.entryIndex);
    if (!answer) {
      const why = played.unplayable.get(step.entryIndex) ?? 'not replayed';
      differences.push({
        entry: step.entryIndex,
        kind: 'rest',
        subject,
        what: 'not replayed',
        expected: 'a call',
        got: why,
      });
      continue;
    }
    const expected = step.entry.response;
    if (answer.status !== expected.status) {
      differences.push({
        entry: step.entryIndex,
        kind: 'rest',
        subject,
        what: 'status',
        expected: expected.status,
        got: answer.status,
      });
      continue;
    }
    for (const leaf of differencesOf(comparable(expected.content.text), comparable(answer.body)))
      differences.push({ entry: step.entryIndex, kind: 'rest', subject, what: 'body', ...leaf });
  }
  for (const plan_ of plan.sockets) {
    const subject = `${plan_.kind} socket ${pathOf(plan_.url).replace(/[?&]access_token=[^&]*/, '')}`;
    const socket = played.sockets.get(plan_);
    if (!socket) {
      differences.push({
        entry: plan_.entryIndex,
        kind: plan_.kind,
        subject,
        what: 'not replayed',
        expected: 'a socket',
        got: played.unplayable.get(plan_.entryIndex) ?? 'not opened',
      });
      continue;
    }
    const key = (text: string) => JSON.stringify(comparable(text));
    const { missing, unexpected } = unmatched(
      plan_.received.map((frame) => frame.data),
      socket.received,
      key,
    );
    for (const frame of missing)
      differences.push({
        entry: plan_.entryIndex,
        kind: plan_.kind,
        subject,
        what: 'frame missing',
        expected: comparable(frame),
      });
    for (const frame of unexpected)
      differences.push({
        entry: plan_.entryIndex,
        kind: plan_.kind,
        subject,
        what: 'frame unexpected',
        got: comparable(frame),
      });
  }
  const { missing, unexpected } = unmatched(
    plan.webhooks.map((attempt) => attempt.entry),
    webhookAttempts,
    attemptKey,
  );
  const describe = (entry: HarEntry) => ({
    status: entry.response.status,
    body: comparable(entry.request.postData?.text),
  });
  for (const entry of missing)
    differences.push({
      entry: entries.indexOf(entry),
      kind: 'webhook',
      subject: `webhook ${entry._webhook?.eventType ?? '?'} → ${entry.request.url}`,
      what: 'attempt missing',
      expected: describe(entry),
    });
  for (const entry of unexpected)
    differences.push({
      entry: null,
      kind: 'webhook',
      subject: `webhook ${entry._webhook?.eventType ?? '?'} → ${entry.request.url}`,
      what: 'attempt unexpected',
      got: describe(entry),
    });
  return differences.sort((a, b) => (a.entry ?? Number.MAX_SAFE_INTEGER) - (b.entry ?? Number.MAX_SAFE_INTEGER));
}
