import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../server/routes.js';
import { createProject, expectError, registerUser } from '../support/factories.js';
import { useTestServer } from '../support/use-test-server.js';

const t = useTestServer();

let doc: any;
beforeAll(async () => {
  doc = (await t.api.get('/openapi.json')).body;
});

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with both credential schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'adminToken',
      'apiKey',
      'chatToken',
      'rtcToken',
      'session',
    ]);
  });

  it('holds no safe-integer bound, which documentation tools would show as an example (a room of -9007199254740991)', () => {
    const huge: string[] = [];
    JSON.stringify(doc, (key, value) => {
      if (typeof value === 'number' && Math.abs(value) === Number.MAX_SAFE_INTEGER) huge.push(key);
      return value;
    });
    expect(huge).toEqual([]);
    const room = doc.components.schemas.Room.properties.participantCount;
    expect(room).toMatchObject({ type: 'integer', minimum: 0, example: 2 });
  });

  it('describes every route the server mounts, and the control-plane routes of the spec', () => {
    for (const route of routes) {
      expect(doc.paths[route.path]?.[route.method], `${route.method} ${route.path}`).toBeDefined();
    }
    const spec = [
      'post /v1/auth/register',
      'post /v1/auth/login',
      'post /v1/auth/logout',
      'post /v1/projects',
      'get /v1/projects',
      'get /v1/projects/{id}',
      'patch /v1/projects/{id}',
      'delete /v1/projects/{id}',
      'get /v1/projects/{id}/members',
      'post /v1/projects/{id}/members',
      'patch /v1/projects/{id}/members/{userId}',
      'delete /v1/projects/{id}/members/{userId}',
      'post /v1/projects/{id}/api-keys',
      'get /v1/projects/{id}/api-keys',
      'delete /v1/projects/{id}/api-keys/{keyId}',
      'get /v1/projects/{id}/audit-logs',
    ];
    for (const entry of spec) {
      const [method, path] = entry.split(' ');
      expect(doc.paths[path]?.[method], entry).toBeDefined();
    }
  });

  it('documents the attachment routes, including the raw bytes behind signed URLs', () => {
    expect(doc.paths['/v1/chat/conversations/{room}/attachments'].post.operationId).toBe('createAttachment');
    expect(doc.paths['/v1/chat/attachments/{attachmentId}/complete'].post).toBeDefined();
    expect(doc.paths['/v1/chat/attachments/{attachmentId}/download-url'].get).toBeDefined();
    const content = doc.paths['/v1/chat/attachments/{attachmentId}/content'];
    expect(content.put.security).toEqual([]);
    expect(Object.keys(content.put.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '409', '415']));
    expect(content.get.responses['403']).toBeDefined();
  });

  it('documents strict request bodies from the same schemas the server validates with', () => {
    const body = doc.paths['/v1/projects/{id}/api-keys'].post.requestBody.content['application/json'].schema;
    const schema = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['name']);
    expect(schema.properties.environment.enum).toEqual(['development', 'staging', 'production']);
  });

  it('documents the error body and the capability each project route needs', () => {
    const op = doc.paths['/v1/projects/{id}/members'].post;
    expect(op.responses['403'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(op.description).toContain('members:manage');
    expect(doc.components.schemas.Error.required).toEqual(['code', 'message', 'requestId']);
  });

  it('documents the answers any call can get: 503 everywhere, faults and key limits where keys go, 413/415 with a body', () => {
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      const responses = doc.paths[route.path][route.method].responses;
      expect(responses['503']?.description, name).toContain('SERVICE_UNAVAILABLE');
      expect(responses['503'].headers['Retry-After'], name).toBeDefined();
      if (route.body) expect(Object.keys(responses), name).toEqual(expect.arrayContaining(['413', '415']));
    }
    const post = doc.paths['/v1/chat/conversations/{room}/messages'].post.responses;
    expect(post['503'].description).toContain('SERVICE_FAULT_INJECTED');
    expect(post['429'].description).toContain('SERVICE_RATE_LIMITED');
    expect(post['429'].headers['Retry-After'].schema.type).toBe('integer');
    // A dashboard session is never refused by an injected fault, nor counted against a key.
    const members = doc.paths['/v1/projects/{id}/members'].get.responses;
    expect(members['503'].description).not.toContain('SERVICE_FAULT_INJECTED');
    expect(members['429']).toBeUndefined();
  });

  it('documents ?environment= on every dashboard route that acts in one environment, from the route table', () => {
    const scoped = routes.filter((route) => route.auth === 'project-environment');
    expect(scoped.length).toBeGreaterThan(20);
    for (const route of scoped) {
      const parameters = doc.paths[route.path][route.method].parameters ?? [];
      const environment = parameters.find(
        (p: { name: string; in: string }) => p.in === 'query' && p.name === 'environment',
      );
      expect(environment?.required, `${route.method} ${route.path}`).not.toBe(true);
      expect(environment.schema.description).toContain('default development');
    }
  });

  it('refuses an unknown environment on such a route, naming the field for programs', async () => {
    const user = await registerUser(t.api);
    const project = await createProject(t.api, user);
    const res = await t.api.get(`/v1/projects/${project.id}/webhooks?environment=qa`, { token: user.token });
    expectError(res, 400, 'SERVICE_VALIDATION_FAILED');
    expect(res.body.fields).toEqual([{ path: 'environment', message: expect.stringMatching(/\S/) }]);
  });
});
