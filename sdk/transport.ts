import { NETWORK_ERROR, SwitchboardError, UNEXPECTED_RESPONSE } from './errors.js';

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

export type QueryValue = string | number | boolean | undefined;

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Already encoded; build it with `path`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

/** A path with each parameter percent-encoded: path`/v1/projects/${id}` . */
export function path(strings: TemplateStringsArray, ...params: string[]): string {
  return strings.reduce((out, part, i) => out + part + (i < params.length ? encodeURIComponent(params[i]) : ''), '');
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

  async request<T>(spec: RequestSpec): Promise<T> {
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
   * A GET answered with Server-Sent Events: the open stream's body, once the server has accepted
   * the request (an error answer throws, as `request` does). `signal` aborts the request and the stream.
   */
  openEventStream(
    spec: Pick<RequestSpec, 'path' | 'query'>,
    signal?: AbortSignal,
  ): Promise<ReadableStream<Uint8Array>> {
    return this.openStream(spec, 'text/event-stream', signal);
  }

  /** A GET answered with a file of `contentType` (a backup archive): its body, to stream where it belongs. */
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

function queryString(query: Record<string, QueryValue> | undefined): string {
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
