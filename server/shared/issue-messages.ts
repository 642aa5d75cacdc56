import type * as z from 'zod';
import type { FieldProblem } from '../errors.js';

/**
 * What is wrong with a request's input, in words that say what to send instead: the type expected and the type given,
 * the limit and its value, the values allowed. A zod error map, passed to each parse (not set globally: the server is
 * also a library in other programs' processes); a message a schema gives itself (`.min(1, 'must not be empty')`)
 * still wins. Missing is the only "required": a value of the wrong type is never reported as missing.
 */
export function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required';
      if (issue.expected === 'int' && typeof issue.input === 'number') return `expected an integer, got ${issue.input}`;
      return `expected ${expectedType(issue.expected, issue.inst)}, got ${typeOf(issue.input)}`;
    case 'too_big':
      return limitMessage(
        'at most',
        'less than',
        issue.maximum,
        issue.inclusive,
        issue.exact,
        issue.origin,
        issue.input,
      );
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1 && !issue.exact) return 'must not be empty';
      return limitMessage(
        'at least',
        'more than',
        issue.minimum,
        issue.inclusive,
        issue.exact,
        issue.origin,
        issue.input,
      );
    case 'invalid_value':
      return `expected ${oneOf(issue.values)}, got ${shown(issue.input)}`;
    case 'invalid_format':
      return formatMessage(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_union':
      return unionMessage(issue);
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    case 'invalid_key':
      return `has an invalid key: ${issue.issues.map((i) => i.message).join('; ')}`;
    default:
      return undefined;
  }
}

/** `members.0.userId`, or '' for the whole body, query or message. */
function pathOf(issue: z.core.$ZodIssue): string {
  return issue.path.map(String).join('.');
}

/**
 * The issue's message, but for a value of the wrong type where the schema words its own (`z.email('must be an email
 * address')`): missing is still "required", and another type still says what it was.
 */
export function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_type' || issue.message.startsWith('expected ')) return issue.message;
  if (issue.input === undefined) return 'required';
  const given = issue.expected === 'int' && typeof issue.input === 'number' ? String(issue.input) : typeOf(issue.input);
  return `${issue.message}, got ${given}`;
}

/** One line for people: `maxParticipants: expected a number, got a string`; `where` names the root. */
export function describeIssue(issue: z.core.$ZodIssue, where: string): string {
  const path = pathOf(issue);
  if (issue.code === 'unrecognized_keys') {
    const fields = issue.keys.map((k) => (path ? `${path}.${k}` : k));
    return `unknown ${where} field${fields.length > 1 ? 's' : ''} ${fields.map((f) => `"${f}"`).join(', ')}`;
  }
  return `${path || where}: ${issueText(issue)}`;
}

/** The same issue for a program: one entry per field at fault (the path is empty for the whole body or query). */
export function fieldProblems(issue: z.core.$ZodIssue): FieldProblem[] {
  const path = pathOf(issue);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: path ? `${path}.${key}` : key, message: 'unknown field' }));
  }
  return [{ path, message: issueText(issue) }];
}

/** Parses with the messages above: every parse of what a client sent (HTTP bodies and queries, socket messages, seeds). */
export function parseClientInput<S extends z.ZodType>(schema: S, input: unknown) {
  // With the input in each issue, for issueText: kept in the issue, not put into any answer.
  return schema.safeParse(input, { error: issueMessage, reportInput: true });
}

const ARTICLE_TYPES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'a boolean (true or false)',
  object: 'an object',
  record: 'an object',
  map: 'an object',
  array: 'an array',
  tuple: 'an array',
  set: 'an array',
  null: 'null',
  date: 'a date',
};

/** Fields listed when an object was expected, so that `"alice"` for a member shows the `{userId, role?}` wanted. */
const MAX_FIELDS_SHOWN = 10;

function expectedType(expected: string, inst: unknown): string {
  const words = ARTICLE_TYPES[expected] ?? `a ${expected}`;
  if (expected !== 'object') return words;
  const shape = (inst as { _zod?: { def?: { shape?: Record<string, { _zod: { optin?: string } }> } } })?._zod?.def
    ?.shape;
  if (!shape) return words;
  const fields = Object.entries(shape).map(([key, field]) => (field._zod.optin ? `${key}?` : key));
  if (fields.length === 0 || fields.length > MAX_FIELDS_SHOWN) return words;
  return `${words} {${fields.join(', ')}}`;
}

/** The type of a value parsed from JSON, as a person names it. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  // z.coerce.number() (a query's numbers) makes NaN of what is no number; what was sent is gone by then.
  if (Number.isNaN(value)) return 'something that is not a number';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** A short value as written in JSON (what was sent, so that the difference shows); the type of a long one. */
function shown(value: unknown): string {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string' && value.length <= 40) return JSON.stringify(value);
  return typeOf(value);
}

function oneOf(values: readonly unknown[]): string {
  const written = values.map((v) => (typeof v === 'string' ? JSON.stringify(v) : String(v)));
  return written.length === 1 ? written[0] : `one of ${written.join(', ')}`;
}

const UNITS: Record<string, [one: string, many: string]> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
  file: ['byte', 'bytes'],
};

/** `must be at most 50, got 51`; `must be at most 128 characters (this one has 200)`. */
function limitMessage(
  inclusiveWords: string,
  exclusiveWords: string,
  bound: number | bigint | Date,
  inclusive: boolean | undefined,
  exact: boolean | undefined,
  origin: string,
  input: unknown,
): string {
  const unit = UNITS[origin];
  if (unit) {
    const count = Number(bound);
    const words = `${exact ? 'exactly' : inclusiveWords} ${count} ${count === 1 ? unit[0] : unit[1]}`;
    const size = sizeOf(input);
    const had = size === undefined ? '' : ` (this one has ${size})`;
    return `${origin === 'string' ? 'must be' : 'must have'} ${words}${had}`;
  }
  const value = bound instanceof Date ? bound.toISOString() : String(bound);
  const relation = exact ? 'exactly' : inclusive === false ? exclusiveWords : inclusiveWords;
  const got = typeof input === 'number' || typeof input === 'bigint' ? `, got ${input}` : '';
  return `must be ${relation} ${value}${got}`;
}

function sizeOf(input: unknown): number | undefined {
  if (typeof input === 'string' || Array.isArray(input)) return input.length;
  if (input instanceof Set) return input.size;
  return undefined;
}

const FORMATS: Record<string, string> = {
  email: 'must be an email address',
  url: 'must be a URL',
  uuid: 'must be a UUID',
  datetime: 'must be a date and time in ISO 8601 with a Z, e.g. 2026-01-31T12:00:00Z',
  date: 'must be a date as YYYY-MM-DD',
  time: 'must be a time as HH:MM:SS',
  duration: 'must be an ISO 8601 duration, e.g. PT5M',
  ipv4: 'must be an IPv4 address',
  ipv6: 'must be an IPv6 address',
  base64: 'must be base64',
  base64url: 'must be base64url',
  lowercase: 'must be in lower case',
  uppercase: 'must be in upper case',
};

function formatMessage(issue: z.core.$ZodRawIssue<z.core.$ZodIssueInvalidStringFormat>): string {
  switch (issue.format) {
    case 'starts_with':
      return `must start with ${JSON.stringify((issue as { prefix?: string }).prefix)}`;
    case 'ends_with':
      return `must end with ${JSON.stringify((issue as { suffix?: string }).suffix)}`;
    case 'includes':
      return `must contain ${JSON.stringify((issue as { includes?: string }).includes)}`;
    case 'regex':
      return issue.pattern ? `must match the pattern ${issue.pattern}` : 'has the wrong format';
    default:
      return FORMATS[issue.format] ?? `must be a valid ${issue.format}`;
  }
}

/**
 * A union none of whose options matched: the values a discriminator allows, or the types the options expect
 * (`expected a string or a number, got a boolean`), else a general word.
 */
function unionMessage(issue: z.core.$ZodRawIssue<z.core.$ZodIssueInvalidUnion>): string {
  const raw = issue as { discriminator?: string; options?: unknown[] };
  if (raw.discriminator !== undefined && raw.options) {
    const input = issue.input as Record<string, unknown> | undefined;
    const sent = input?.[raw.discriminator];
    return sent === undefined
      ? `required: ${oneOf(raw.options)}`
      : `expected ${oneOf(raw.options)}, got ${shown(sent)}`;
  }
  const branches = issue.errors;
  const typeOnly = branches.every((b) => b.length === 1 && b[0].code === 'invalid_type' && b[0].path.length === 0);
  if (typeOnly && branches.length > 0 && issue.input !== undefined) {
    const expected = [...new Set(branches.map((b) => (b[0] as z.core.$ZodIssueInvalidType).expected))];
    const words = expected.map((e) => ARTICLE_TYPES[e] ?? `a ${e}`);
    const list = words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : words[0];
    return `expected ${list}, got ${typeOf(issue.input)}`;
  }
  if (issue.input === undefined) return 'required';
  return 'matches none of the forms this field accepts';
}
