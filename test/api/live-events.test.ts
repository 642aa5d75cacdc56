import { describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS } from '../../server/http/event-stream.js';
import { createKey, createProject, createRoom, expectError, registerUser } from '../support/factories.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

/** Opens `GET /v1/projects/{id}/events` with raw fetch, as any HTTP client would. */
function openStream(projectId: string, token: string, query = '') {
  const abort = new AbortController();
  const response = fetch(`${t.server.url}/v1/projects/${projectId}/events${query}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  });
  return { response, abort };
}

/** The body's text until it contains `needle` (or ends); the body can be read again after. */
async function readUntil(res: Response, needle: string): Promise<{ text: string; ended: boolean }> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text, ended: true };
    text += decoder.decode(value, { stream: true });
    if (needle && text.includes(needle)) {
      reader.releaseLock();
      return { text, ended: false };
    }
  }
}

describe('GET /v1/projects/{id}/events', () => {
  it('streams Server-Sent Events of the environment named in any letter case', async () => {
    const owner = await registerUser(t.api);
    const project = await createProject(t.api, owner);
    const key = await createKey(t.api, project.id, owner, 'staging');
    const { response, abort } = openStream(project.id, owner.token, '?environment=STAGING');
    try {
      const res = await response;
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
      const room = await createRoom(t.api, key.key, 'streamed');
      const { text } = await readUntil(res, '\n\n');
      const [eventLine, dataLine] = text.split('\n');
      expect(eventLine).toBe('event: room.created');
      expect(JSON.parse(dataLine.slice('data: '.length))).toEqual({
        type: 'room.created',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        environment: 'staging',
        data: { room: { id: room.id, name: 'streamed', createdAt: expect.any(String) } },
      });
    } finally {
      abort.abort();
    }
  });

  it('refuses an unknown environment, the CLI’s short aliases and unknown parameters with 400', async () => {
    const owner = await registerUser(t.api);
    const project = await createProject(t.api, owner);
    for (const query of ['?environment=qa', '?environment=stg', '?since=now']) {
      const res = await t.api.get(`/v1/projects/${project.id}/events${query}`, { token: owner.token });
      expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
    }
  });

  it('ends when its project is deleted', async () => {
    const owner = await registerUser(t.api);
    const project = await createProject(t.api, owner);
    const { response } = openStream(project.id, owner.token);
    const res = await response;
    expect(res.status).toBe(200);
    expect((await t.api.delete(`/v1/projects/${project.id}`, { token: owner.token })).status).toBe(204);
    expect(await readUntil(res, '')).toEqual({ text: '', ended: true });
  });

  it('sends heartbeats, and ends at the first one after the session is signed out', async () => {
    const owner = await registerUser(t.api);
    const project = await createProject(t.api, owner);
    // Only intervals are faked, from here on: the stream's heartbeat is the one this test starts.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { response } = openStream(project.id, owner.token);
      const res = await response;
      await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
      expect(await readUntil(res, ': heartbeat\n\n')).toEqual({ text: ': heartbeat\n\n', ended: false });
      expect((await t.api.post('/v1/auth/logout', { token: owner.token })).status).toBe(204);
      await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
      expect(await readUntil(res, '')).toEqual({ text: '', ended: true });
    } finally {
      vi.useRealTimers();
    }
  });

  it('is described in the OpenAPI document as text/event-stream with the LiveEvent schema', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    const op = doc.paths['/v1/projects/{id}/events'].get;
    expect(op.operationId).toBe('streamEvents');
    expect(op.description).toContain('project:read');
    expect(op.responses['200'].content['text/event-stream'].schema.$ref).toBe('#/components/schemas/LiveEvent');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404']));
  });
});
