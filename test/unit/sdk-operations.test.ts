import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../sdk/operations.js';
import { fillPath } from '../../sdk/transport.js';
import { routes } from '../../server/routes.js';

describe("the SDK's operations map", () => {
  it("is the route table's operation ids, methods and paths, exactly", () => {
    const table = Object.fromEntries(
      routes.map((route) => [route.operationId, { method: route.method, path: route.path }]),
    );
    expect(OPERATIONS).toEqual(table);
  });
});

describe('fillPath', () => {
  it("puts each parameter in its place, percent-encoded, so that a value cannot change the request's path", () => {
    expect(fillPath('/v1/projects/{id}/members/{userId}', { id: 'prj_1', userId: 'a/b c?d' })).toBe(
      '/v1/projects/prj_1/members/a%2Fb%20c%3Fd',
    );
    expect(fillPath('/v1/chat/messages/{messageId}/reactions/{emoji}', { messageId: 'msg_1', emoji: '👍' })).toBe(
      '/v1/chat/messages/msg_1/reactions/%F0%9F%91%8D',
    );
  });

  it('refuses a missing parameter rather than calling another route', () => {
    expect(() => fillPath('/v1/projects/{id}', {})).toThrow('/v1/projects/{id} needs the path parameter "id"');
  });
});
