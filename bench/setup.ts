/** Creates, over the public API, the account, project and API key that the benchmark sends. */

export interface Credentials {
  email: string;
  password: string;
  /** Dashboard session token. */
  sessionToken: string;
  /** Project API key (development environment). */
  apiKey: string;
  projectId: string;
}

export async function call<T>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(new URL(path, baseUrl), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`Setup: ${method} ${path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

export async function createCredentials(baseUrl: string): Promise<Credentials> {
  const email = 'bench@example.com';
  const password = 'bench-password-1';
  const { token } = await call<{ token: string }>(baseUrl, 'POST', '/v1/auth/register', { email, password });
  const project = await call<{ id: string }>(baseUrl, 'POST', '/v1/projects', { name: 'Bench' }, token);
  const { key } = await call<{ key: string }>(
    baseUrl,
    'POST',
    `/v1/projects/${project.id}/api-keys`,
    { name: 'bench' },
    token,
  );

  // One request before the load: a 200 with the wrong body would make every figure meaningless.
  const whoami = await call<{ type: string }>(baseUrl, 'GET', '/v1/whoami', undefined, key);
  if (whoami.type !== 'api_key') throw new Error(`Setup: /v1/whoami with the key said ${JSON.stringify(whoami)}`);
  return { email, password, sessionToken: token, apiKey: key, projectId: project.id };
}
