import { beforeAll, describe, expect, it } from 'vitest';
import { createConversation, expectError, projectWithKeys } from '../support/factories.js';
import { useTestServer } from '../support/use-test-server.js';

/** How a request finds its route (server/http/register-routes.ts): what a client sees of the route table. */
describe('routing', () => {
  const t = useTestServer();
  let key: string;
  beforeAll(async () => {
    key = (await projectWithKeys(t.api)).keys.development;
  });

  it('reaches the same route with or without a trailing slash', async () => {
    const conversation = await createConversation(t.api, key, { members: ['ada'] });
    const plain = await t.api.get(`/v1/chat/conversations/${conversation.id}`, { token: key });
    const slashed = await t.api.get(`/v1/chat/conversations/${conversation.id}/`, { token: key });
    expect(plain.status).toBe(200);
    expect(slashed.status).toBe(200);
    expect(slashed.body).toEqual(plain.body);
  });

  it('decodes percent-encoded path parameters, a slash included', async () => {
    const userId = 'team/ada lovelace ü';
    const conversation = await createConversation(t.api, key, { members: [userId, 'grace'] });
    const removed = await t.api.delete(
      `/v1/chat/conversations/${conversation.id}/members/${encodeURIComponent(userId)}`,
      { token: key },
    );
    expect(removed.status).toBe(204);
    const members = await t.api.get(`/v1/chat/conversations/${conversation.id}/members`, { token: key });
    expect(members.body.data.map((m: { userId: string }) => m.userId)).toEqual(['grace']);
  });

  it('answers HEAD with the GET route’s status and headers and no body', async () => {
    const res = await t.api.request('HEAD', '/v1/chat/conversations', { token: key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toBeUndefined();
  });

  it('answers a plain OPTIONS with the methods the path allows', async () => {
    const list = await t.api.request('OPTIONS', '/v1/chat/conversations');
    expect(list.status).toBe(204);
    expect(list.headers.get('allow')).toBe('GET, HEAD, POST');
    const message = await t.api.request('OPTIONS', '/v1/chat/messages/msg_x');
    expect(message.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE');
  });

  it('answers 404 for a path or a method that is not in the API, or a parameter that does not decode', async () => {
    for (const [method, path] of [
      ['GET', '/v1/chat/messages/%E0%A4%A'],
      ['PUT', '/v1/chat/conversations'],
      ['GET', '/v1/chat/nothing-here'],
      ['OPTIONS', '/v1/chat/nothing-here'],
      ['GET', '/v1/CHAT/conversations'],
    ]) {
      const res = await t.api.request(method, path, { token: key });
      expectError(res, 404, 'SERVICE_ROUTE_NOT_FOUND');
      expect(res.body.message).toContain(`${method} ${path}`);
    }
  });
});
