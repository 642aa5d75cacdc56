/** A thin HTTP client for tests: real requests, JSON in and out, nothing mocked. */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is (for malformed-input tests); overrides `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export function client(baseUrl: string) {
  async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  return {
    request,
    get: <T = any>(path: string, o?: RequestOptions) => request<T>('GET', path, o),
    post: <T = any>(path: string, o?: RequestOptions) => request<T>('POST', path, o),
    patch: <T = any>(path: string, o?: RequestOptions) => request<T>('PATCH', path, o),
    put: <T = any>(path: string, o?: RequestOptions) => request<T>('PUT', path, o),
    delete: <T = any>(path: string, o?: RequestOptions) => request<T>('DELETE', path, o),
  };
}

export type Client = ReturnType<typeof client>;
