import { NETWORK_ERROR, SwitchboardError, UNEXPECTED_RESPONSE } from './errors.js';
import { OPERATIONS } from './operations.js';
import type { OperationId, Operations } from './types.js';

/** Where the server listens when nothing else is said: the desktop app's and `switchboard serve`'s default. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4700';

/** The `ws:` or `wss:` origin of a server's sockets; an empty base URL is the page's own origin. */
export function socketBaseOf(baseUrl: string): string {
  const base = baseUrl || (globalThis as { location?: { origin: string } }).location?.origin || '';
  return base.replace(/\/+$/, '').replace(/^http/, 'ws');
}

export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:4700`; `''` means the page's own origin in a browser. */
  baseUrl?: string;
  /** Any `fetch` (a test double, a proxy-aware one); the global one by default. */
  fetch?: typeof fetch;
}

type Operation<Id extends OperationId> = Operations[Id];

/**
 * What `call` takes besides the operation id: the path's parameters by name, the query and the body, each only
 * where the operation has one. `params` and `body` are then required; the query is always optional.
 */
export type CallInput<Id extends OperationId> = (Operation<Id>['params'] extends undefined
  ? { params?: undefined }
  : { params: Operation<Id>['params'] }) &
  (Operation<Id>['query'] extends undefined ? { query?: undefined } : { query?: Operation<Id>['query'] }) &
  (Operation<Id>['body'] extends undefined ? { body?: undefined } : { body: Operation<Id>['body'] });

/** `call`'s arguments after the id: the input may be left out when nothing in it is required. */
type CallArgs<Id extends OperationId> =
  Partial<CallInput<Id>> extends CallInput<Id> ? [input?: CallInput<Id>] : [input: CallInput<Id>];

interface RequestSpec {
  method: string;
  /** Already encoded. */
  path: string;
  query?: object;
  body?: unknown;
}

/** `/v1/projects/{id}` with `{id: 'prj 1'}` → `/v1/projects/prj%201`: each parameter percent-encoded. */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`${template} needs the path parameter "${name}"`);
    return encodeURIComponent(value);
  });
}

/**
 * JSON over `fetch` with one credential. Every failure becomes a `SwitchboardError`. Browser-safe:
 * nothing here needs Node.
 */
export class Transport {
  readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(
    options: ClientOptions,
    /** Sent as `Authorization: Bearer …`; a console client changes it on login and logout. */
    public credential: string | undefined,
  ) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    // Called through a closure: browsers refuse a `fetch` detached from `window`.
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /**
   * One operation of the API, named by its `operationId`; its method and path come from the operations map, and the
   * types of its input and answer from the server's route table (server/operations.ts):
   *
   * ```ts
   * transport.call('revokeApiKey', { params: { id: projectId, keyId }, query: { environment } });
   * ```
   */
  call<Id extends OperationId>(id: Id, ...[input]: CallArgs<Id>): Promise<Operation<Id>['response']> {
    // The conditional input type is for callers; here only its three optional parts matter.
    const { params, query, body } = (input ?? {}) as { params?: Record<string, string>; query?: object; body?: object };
    const { method, path } = OPERATIONS[id];
    return this.request({ method: method.toUpperCase(), path: fillPath(path, params), query, body });
  }

  private async request<T>(spec: RequestSpec): Promise<T> {
    const headers = this.headers('application/json');
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.send(this.urlOf(spec), {
      method: spec.method,
      headers,
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
    });
    return readAnswer<T>(res, `${spec.method} ${spec.path}`);
  }

  /**
   * A GET operation answered with Server-Sent Events (`streamEvents`): the open stream's body, once the server has
   * accepted the request (an error answer throws, as `call` does). `signal` aborts the request and the stream.
   */
  openEventStream<Id extends 'streamEvents'>(
    id: Id,
    input: Pick<CallInput<Id>, 'params' | 'query'>,
    signal?: AbortSignal,
  ): Promise<ReadableStream<Uint8Array>> {
    const path = fillPath(OPERATIONS[id].path, input.params);
    return this.openStream({ path, query: input.query }, 'text/event-stream', signal);
  }

  /**
   * A GET of `path` (outside the route table: the admin backup) answered with a file of `contentType`: its body, to
   * stream where it belongs.
   */
  download(spec: Pick<RequestSpec, 'path' | 'query'>, contentType: string): Promise<ReadableStream<Uint8Array>> {
    return this.openStream(spec, contentType);
  }

  private async openStream(
    spec: Pick<RequestSpec, 'path' | 'query'>,
    contentType: string,
    signal?: AbortSignal,
  ): Promise<ReadableStream<Uint8Array>> {
    const res = await this.send(this.urlOf(spec), {
      method: 'GET',
      headers: this.headers(`${contentType}, application/json`),
      signal,
    });
    const what = `GET ${spec.path}`;
    if (!res.ok) return readAnswer<never>(res, what);
    if (!res.body || !res.headers.get('content-type')?.startsWith(contentType)) {
      await res.body?.cancel();
      throw new SwitchboardError(
        res.status,
        UNEXPECTED_RESPONSE,
        `${what} answered HTTP ${res.status} without ${contentType}`,
        res.headers.get('x-request-id'),
      );
    }
    return res.body;
  }

  /** PUT raw bytes to an absolute, self-signed URL (an attachment's upload URL): no credential sent. */
  async putBytes<T>(url: string, contentType: string, data: Uint8Array | Blob): Promise<T> {
    const res = await this.send(url, {
      method: 'PUT',
      headers: { accept: 'application/json', 'content-type': contentType },
      body: data as NonNullable<RequestInit['body']>,
    });
    return readAnswer<T>(res, 'PUT upload URL');
  }

  private urlOf(spec: Pick<RequestSpec, 'path' | 'query'>): string {
    return this.baseUrl + spec.path + queryString(spec.query);
  }

  private headers(accept: string): Record<string, string> {
    const headers: Record<string, string> = { accept };
    if (this.credential) headers.authorization = `Bearer ${this.credential}`;
    return headers;
  }

  /** `fetch`, with a failure to get any answer turned into a `CLIENT_NETWORK_ERROR`. */
  private async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetch(url, init);
    } catch (err) {
      throw new SwitchboardError(
        0,
        NETWORK_ERROR,
        `Could not reach the Switchboard server at ${this.baseUrl || 'this origin'}: ${describeCause(err)}`,
        null,
        { cause: err },
      );
    }
  }
}

function queryString(query: object | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Node's fetch says only "fetch failed"; the reason (ECONNREFUSED, a DNS failure…) is in its cause. */
export function describeCause(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  return cause ? `${err.message} (${cause})` : err.message;
}

async function readAnswer<T>(res: Response, what: string): Promise<T> {
  const requestId = res.headers.get('x-request-id');
  const text = await res.text();
  let body: unknown;
  let isJson = false;
  try {
    body = text ? JSON.parse(text) : undefined;
    isJson = true;
  } catch {
    // Not JSON: handled below.
  }
  if (res.ok) {
    if (res.status === 204 || (isJson && text)) return body as T;
  } else if (isJson && isErrorBody(body)) {
    throw new SwitchboardError(res.status, body.code, body.message, body.requestId ?? requestId);
  }
  const snippet = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  throw new SwitchboardError(
    res.status,
    UNEXPECTED_RESPONSE,
    `${what} answered HTTP ${res.status} ${res.statusText} with ${snippet ? `this instead of the API's JSON: ${snippet}` : 'no body'}`,
    requestId,
  );
}

function isErrorBody(body: unknown): body is { code: string; message: string; requestId?: string } {
  if (typeof body !== 'object' || body === null) return false;
  const { code, message } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string';
}
