/**
 * One input of the property test over the OpenAPI document: an operation called with valid credentials and values
 * (each server's own fixtures, named here, not their ids) but for one or two bad values. The same case is rendered
 * for each server with its fixtures, so that both stores answer the same input.
 */
import fc from 'fast-check';
import { badJson, badQueryValue, badRawBody, badString, badToken } from './bad-values.js';
import { type FieldPath, fieldPaths, type Operation, validValue } from './operations.js';

/** What a fixture is called, in both servers' fixtures (test/support/openapi-fuzz/fixtures.ts). */
export type FixtureName = string;

export type Mutation =
  | { at: 'path'; name: string; value: string; raw: boolean }
  | { at: 'query'; name: string; values: string[] }
  | { at: 'body'; field: FieldPath; value: unknown }
  | { at: 'body'; field: FieldPath; remove: true }
  | ({ at: 'rawBody' } & { raw: string; contentType?: string })
  | { at: 'credential'; token: string | null }
  | { at: 'credential'; fixture: FixtureName };

export interface FuzzCase {
  operation: Operation;
  /** The credential scheme sent (one the route takes), before any mutation of it. */
  scheme: string | undefined;
  mutations: Mutation[];
}

/** Credentials that are real but not the right ones: a stranger's session, other environments' keys, a revoked key. */
const WRONG_CREDENTIALS: FixtureName[] = [
  'strangerSession',
  'stagingKey',
  'productionKey',
  'revokedKey',
  'session',
  'apiKey',
  'chatToken',
  'rtcToken',
];

export function caseArbitrary(operation: Operation): fc.Arbitrary<FuzzCase> {
  const choices: fc.WeightedArbitrary<Mutation>[] = [];
  if (operation.pathParams.length > 0)
    choices.push({
      weight: 3,
      arbitrary: fc.record({
        at: fc.constant('path' as const),
        name: fc.constantFrom(...operation.pathParams),
        value: badString,
        raw: fc.boolean(),
      }),
    });
  choices.push({
    weight: operation.query.length > 0 ? 3 : 1,
    arbitrary: fc.record({
      at: fc.constant('query' as const),
      name: fc.constantFrom(...operation.query.map((q) => q.name), 'fuzz'),
      values: fc.array(badQueryValue, { minLength: 1, maxLength: 2 }),
    }),
  });
  const body = operation.body;
  if (body && 'json' in body) {
    const field = fc.constantFrom(...fieldPaths(body.json));
    choices.push({
      weight: 5,
      arbitrary: fc.oneof(
        { weight: 4, arbitrary: fc.record({ at: fc.constant('body' as const), field, value: badJson }) },
        {
          weight: 1,
          arbitrary: fc.record({ at: fc.constant('body' as const), field, remove: fc.constant(true as const) }),
        },
      ),
    });
  }
  if (body) choices.push({ weight: 1, arbitrary: badRawBody.map((raw) => ({ at: 'rawBody' as const, ...raw })) });
  choices.push({
    weight: 1,
    arbitrary: fc.oneof(
      fc.record({ at: fc.constant('credential' as const), token: fc.option(badToken, { nil: null }) }),
      fc.record({ at: fc.constant('credential' as const), fixture: fc.constantFrom(...WRONG_CREDENTIALS) }),
    ),
  });
  return fc.record({
    operation: fc.constant(operation),
    scheme: operation.schemes.length > 0 ? fc.constantFrom(...operation.schemes) : fc.constant(undefined),
    mutations: fc.array(fc.oneof(...choices), { minLength: 1, maxLength: 2 }),
  });
}

/** A case as one server receives it: method, request target (path and query), headers and body. */
export interface HttpRequest {
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Each server's fixtures: path parameters, credentials and query values by name. */
export interface Fixtures {
  /** The value of a path parameter of an operation, e.g. the project for `id` under `/v1/projects`. */
  pathParam(path: string, name: string): string;
  credential(name: FixtureName): string;
  /** Query parameters every valid call of the operation has (a signed URL's), besides `environment=development`. */
  query(operationId: string): [string, string][];
  /** The body a raw upload sends (what the attachment fixture expects). */
  upload: { bytes: Buffer; contentType: string };
}

/** Percent-encodes every byte of the UTF-8 but the unreserved characters (a lone surrogate becomes U+FFFD). */
export function encode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The body fields in which an API key names the end user it acts for. */
const ACTING_USER_FIELDS = ['senderId', 'userId', 'uploaderId', 'createdBy'];

/** Printable ASCII without what ends a path segment: sendable as it is, unencoded (`%zz`, `..`). */
const SENDABLE_RAW = /^[!-~]*$/;

function setField(body: unknown, field: FieldPath, value: unknown, remove: boolean): unknown {
  const root: Record<string | number, unknown> =
    typeof body === 'object' && body !== null ? structuredClone(body as Record<string, unknown>) : {};
  let at: Record<string | number, unknown> = root;
  for (const key of field.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = typeof key === 'number' ? [] : {};
    at = at[key] as Record<string | number, unknown>;
  }
  const last = field[field.length - 1];
  if (remove) delete at[last];
  else at[last] = value;
  return root;
}

export function render(c: FuzzCase, fixtures: Fixtures): HttpRequest {
  const { operation } = c;
  const params = new Map(operation.pathParams.map((name) => [name, encode(fixtures.pathParam(operation.path, name))]));
  const query = new Map<string, string[]>();
  for (const q of operation.query) {
    if (q.name === 'environment') query.set(q.name, ['development']);
    else if (q.required) query.set(q.name, [String(validValue(q.schema))]);
  }
  for (const [name, value] of fixtures.query(operation.operationId)) query.set(name, [value]);
  // An API key acts for an end user it names; a chat token is one.
  const actsFor = c.scheme === 'apiKey' ? 'alice' : undefined;
  if (actsFor && operation.query.some((q) => q.name === 'userId')) query.set('userId', [actsFor]);
  const headers: Record<string, string> = {};
  if (c.scheme) headers.authorization = `Bearer ${fixtures.credential(c.scheme)}`;
  let json: unknown = operation.body && 'json' in operation.body ? validValue(operation.body.json) : undefined;
  if (actsFor && operation.body && 'json' in operation.body)
    for (const field of ACTING_USER_FIELDS)
      if (operation.body.json.properties?.[field] && !operation.body.json.required?.includes(field))
        json = setField(json, [field], actsFor, false);
  let raw: { raw: string | Buffer; contentType?: string } | undefined =
    operation.body && 'bytes' in operation.body
      ? { raw: fixtures.upload.bytes, contentType: fixtures.upload.contentType }
      : undefined;

  for (const m of c.mutations) {
    if (m.at === 'path')
      params.set(m.name, m.raw && SENDABLE_RAW.test(m.value) && !/[/?#]/.test(m.value) ? m.value : encode(m.value));
    else if (m.at === 'query') query.set(m.name, m.values);
    else if (m.at === 'body') json = setField(json, m.field, 'remove' in m ? undefined : m.value, 'remove' in m);
    else if (m.at === 'rawBody') raw = { raw: m.raw, contentType: m.contentType };
    else if ('fixture' in m) headers.authorization = `Bearer ${fixtures.credential(m.fixture)}`;
    else if (m.token === null) delete headers.authorization;
    else headers.authorization = `Bearer ${m.token}`;
  }

  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => params.get(name) ?? '');
  const search = [...query].flatMap(([name, values]) => values.map((v) => `${encode(name)}=${encode(v)}`)).join('&');
  const request: HttpRequest = { method: operation.method, target: search ? `${path}?${search}` : path, headers };
  if (raw) {
    request.body = raw.raw;
    if (raw.contentType) headers['content-type'] = raw.contentType;
  } else if (json !== undefined) {
    request.body = JSON.stringify(json);
    headers['content-type'] = 'application/json';
  }
  return request;
}

/** The case, readably: what was sent in place of valid values. */
export function describeCase(c: FuzzCase): string {
  const show = (value: unknown) => {
    const text = JSON.stringify(value) ?? String(value);
    return text.length > 120 ? `${text.slice(0, 100)}… (${text.length} characters)` : text;
  };
  const parts = c.mutations.map((m) => {
    if (m.at === 'path') return `path ${m.name}=${show(m.value)}${m.raw ? ' (unencoded)' : ''}`;
    if (m.at === 'query') return `query ${m.name}=${show(m.values)}`;
    if (m.at === 'body') return `body ${m.field.join('.')}${'remove' in m ? ' removed' : `=${show(m.value)}`}`;
    if (m.at === 'rawBody') return `raw body ${show(m.raw)} as ${m.contentType ?? 'no Content-Type'}`;
    if ('fixture' in m) return `credential: ${m.fixture}`;
    return m.token === null ? 'no credential' : `credential ${show(m.token)}`;
  });
  return `${c.operation.operationId} (${c.operation.method} ${c.operation.path}, ${c.scheme ?? 'public'}): ${parts.join('; ') || 'valid input'}`;
}
