import type { ReplayDifference } from './differences.js';
import type { ReplayResult } from './replay.js';

const MAX_VALUE = 300;

/** `1 socket`, `2 sockets`, `1,000 frames`. */
const count = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;

/** A value on one line, cut at MAX_VALUE characters. */
function shown(value: unknown): string {
  const text = value === undefined ? '(nothing)' : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}

function describe(d: ReplayDifference): string[] {
  const where = `${d.entry === null ? 'not in the recording' : `entry ${d.entry}`} · ${d.subject}`;
  if (d.what === 'status') return [where, `  status: expected ${d.expected}, got ${d.got}`];
  if (d.what === 'body')
    return [where, `  body at ${d.path}:`, `    expected ${shown(d.expected)}`, `    got      ${shown(d.got)}`];
  if (d.what === 'not replayed') return [where, `  not replayed: ${d.got}`];
  if (d.what === 'frame missing' || d.what === 'attempt missing') return [where, `  ${d.what}: ${shown(d.expected)}`];
  return [where, `  ${d.what}: ${shown(d.got)}`];
}

/** The result for people: what was replayed where, then each difference (entry, what differed, expected and got). */
export function formatReplay(result: ReplayResult): string {
  const r = result.replayed;
  const where = result.target.throwAway
    ? `a throw-away server (${result.target.url})`
    : `${result.target.environment} of ${result.target.projectId} at ${result.target.url}` +
      (result.target.snapshot ? `, from snapshot ${result.target.snapshot}` : '');
  const head =
    `Replayed ${count(r.rest, 'REST call')}, ${count(r.sockets, 'socket')} (${count(r.framesSent, 'frame')} sent, ` +
    `${r.framesReceived.toLocaleString('en-US')} received), ${count(r.clockAdvances, 'clock advance')}; ` +
    `${count(r.webhookAttempts, 'webhook attempt')} made. Against ${where}, ` +
    `${result.pace} pace, in ${(result.durationMs / 1000).toFixed(1)} s.`;
  if (result.ok) return `${head}\nNo difference.`;
  return [head, `${count(result.differences.length, 'difference')}:`, ...result.differences.flatMap(describe)].join(
    '\n',
  );
}
