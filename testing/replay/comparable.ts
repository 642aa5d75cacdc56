import { redactBody } from '../../server/recordings/redact.js';
import { maskIds } from './ids.js';

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const ORIGIN = /\b(https?|wss?):\/\/[^/\s"?#]+/g;

/** A string as compared: ids, times and servers' origins (which differ from run to run) set aside. */
function comparableString(value: string): string {
  if (ISO_TIME.test(value)) return '<time>';
  return maskIds(value).replace(ORIGIN, '<origin>');
}

function comparableValue(value: unknown): unknown {
  if (typeof value === 'string') return comparableString(value);
  if (Array.isArray(value)) return value.map(comparableValue);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, comparableValue(member)]));
}

/**
 * A body or frame as a replay compares it: its JSON with secrets redacted as the recording redacts them (a token the
 * replay got is `[redacted]` in the file), ids, times and origins set aside. Text that is not JSON stays text.
 */
export function comparable(text: string | undefined | null): unknown {
  if (text === undefined || text === null || text === '') return null;
  const redacted = redactBody(text);
  try {
    return comparableValue(JSON.parse(redacted));
  } catch {
    return comparableString(redacted);
  }
}

/** The parsed JSON of a text, or undefined. */
export function parsedJson(text: string | undefined | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Where two comparable values differ: each leaf that does, by its path (`data.message.text`), at most `limit`. */
export function differencesOf(
  expected: unknown,
  got: unknown,
  path = '',
  limit = 5,
  out: { path: string; expected: unknown; got: unknown }[] = [],
) {
  if (out.length >= limit) return out;
  const bothObjects =
    expected !== null &&
    got !== null &&
    typeof expected === 'object' &&
    typeof got === 'object' &&
    Array.isArray(expected) === Array.isArray(got);
  if (!bothObjects) {
    if (JSON.stringify(expected) !== JSON.stringify(got)) out.push({ path: path || '(body)', expected, got });
    return out;
  }
  const names = new Set([...Object.keys(expected as object), ...Object.keys(got as object)]);
  for (const name of names) {
    const at = Array.isArray(expected) ? `${path}[${name}]` : path ? `${path}.${name}` : name;
    differencesOf((expected as Record<string, unknown>)[name], (got as Record<string, unknown>)[name], at, limit, out);
  }
  return out;
}
