import { NETWORK_ERROR, SwitchboardError, UNEXPECTED_RESPONSE } from './errors.js';

/** Where the server listens when nothing else is said: the desktop app's and `switchboard serve`'s default. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4700';

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
    const url = this.baseUrl + spec.path + queryString(spec.query);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.credential) headers.authorization = `Bearer ${this.credential}`;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await this.fetch(url, {
        method: spec.method,
        headers,
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
      });
    } catch (err) {
      throw new SwitchboardError(
        0,
        NETWORK_ERROR,
        `Could not reach the Switchboard server at ${this.baseUrl || 'this origin'}: ${describeCause(err)}`,
        null,
        { cause: err },
      );
    }
    return readAnswer<T>(res, `${spec.method} ${spec.path}`);
  }

  /** PUT raw bytes to an absolute, self-signed URL (an attachment's upload URL): no credential sent. */
  async putBytes<T>(url: string, contentType: string, data: Uint8Array | Blob): Promise<T> {
    let res: Response;
    try {
      res = await this.fetch(url, {
        method: 'PUT',
        headers: { accept: 'application/json', 'content-type': contentType },
        body: data as NonNullable<RequestInit['body']>,
      });
    } catch (err) {
      throw new SwitchboardError(0, NETWORK_ERROR, `Could not upload to ${url}: ${describeCause(err)}`, null, {
        cause: err,
      });
    }
    return readAnswer<T>(res, 'PUT upload URL');
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
function describeCause(err: unknown): string {
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
